"""A second, independent reading of the line's combat (the rules as docs/line.md states
them), for the property test: written from the rules, not from the engine, and importing nothing of
`libs.games.line` (the cards are read from the data file as printed). It favours plainness over speed:
one object per card, the acting order found afresh at every step.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CARDS_FILE = Path(__file__).parents[3] / "libs" / "games" / "line" / "data" / "cards.json"
PRINTED: dict[str, dict[str, Any]] = {c["id"]: c for c in json.loads(CARDS_FILE.read_text())}

# what the fight log shows of a round: ("hit", side, slot, target, kind, damage), ("died", side, slot),
# ("healed", side, support, target, amount)
Step = tuple[Any, ...]


@dataclass
class Unit:
    card_id: str
    roles: set[str]
    atk: int
    arm: int
    hp: int
    max_hp: int


@dataclass
class Reading:
    links: list[list[str]]  # per side, the ids of the links that light
    stats: list[list[tuple[int, int, int]]]  # per side, each card's ATK, ARM, HP with the links
    first: int
    rounds: list[list[Step]]  # per round, what happened in order
    winner: int
    reason: str
    tie_break: str | None
    score: int


def _words(card: dict[str, Any]) -> set[str]:
    return set(card["roles"]) | set(card["tags"])


def link_bonuses(line: list[str]) -> tuple[list[str], list[list[int]]]:
    """The links of a five and each card's +ATK, +ARM, +HP. A requirement is a condition on the five:
    one card may meet several (rules version 2)."""
    cards = [PRINTED[c] for c in line]
    words = [_words(c) for c in cards]
    bonus = [[0, 0, 0] for _ in cards]
    lit = []

    def everyone(stat: int) -> None:
        for b in bonus:
            b[stat] += 1

    def having(*names: str) -> list[int]:
        return [i for i, w in enumerate(words) if w & set(names)]

    if having("support", "healer"):
        lit.append("anchor")
        everyone(1)
    if having("tank", "initiator") and having("carry", "nuker") and having("support", "healer"):
        lit.append("classic")
        everyone(2)
    control = len(having("disabler", "initiator"))
    if control >= 2:
        lit.append("control_net")
        everyone(1)
        if control >= 3:
            everyone(2)
    if len(having("nuker")) >= 2:
        lit.append("nuker_choir")
        everyone(0)
    escapes = having("escape")
    if len(escapes) >= 2:
        lit.append("slippery")
        for i in escapes:
            bonus[i][1] += 1
    if len(having("pusher")) >= 2:
        lit.append("push")
        for i, c in enumerate(cards):
            bonus[i][0] += "carry" in c["roles"]
            bonus[i][1] -= "tank" in c["roles"]
    return lit, bonus


def units(line: list[str]) -> tuple[list[str], list[Unit]]:
    lit, bonus = link_bonuses(line)
    out = []
    for card_id, (a, r, h) in zip(line, bonus, strict=True):
        c = PRINTED[card_id]
        hp = c["hp"] + h
        out.append(Unit(card_id, set(c["roles"]), c["atk"] + a, max(0, c["arm"] + r), hp, hp))
    return lit, out


def first_side(seed: int) -> int:
    digest = hashlib.sha256(f"{seed}:line:first".encode()).digest()
    return int.from_bytes(digest[:8], "big") % 2


def _ramp(r: int) -> int:
    return 0 if r <= 10 else 1 if r <= 20 else 2 if r <= 30 else 3


def _heal(r: int) -> int:
    return 2 if r <= 5 else 1 if r <= 10 else 0


def _half_up(x: int) -> int:
    return max(1, -(-x // 2))


def _living(side: list[Unit]) -> list[int]:
    return [i for i, u in enumerate(side) if u.hp > 0]


def fight(lines: list[list[str]], seed: int) -> Reading:
    read = [units(line) for line in lines]
    return combat([read[0][1], read[1][1]], first_side(seed), [read[0][0], read[1][0]])


def combat(sides: list[list[Unit]], first: int, links: list[list[str]] | None = None) -> Reading:
    """The fight of two sides of cards with their links already in their stats (any length from 1)."""
    stats = [[(u.atk, u.arm, u.hp) for u in side] for side in sides]
    rounds: list[list[Step]] = []
    winner, reason = -1, "round_limit"
    for r in range(1, 41):
        log: list[Step] = []
        rounds.append(log)
        at_start = [[u.hp for u in side] for side in sides]
        begins = first if r % 2 == 1 else 1 - first
        winner = _hits(sides, begins, r, log)
        if winner >= 0:
            reason = "line_fell"
            break
        _heals(sides, begins, _heal(r), log)
        if all(
            u.hp >= h for side, hs in zip(sides, at_start, strict=True) for u, h in zip(side, hs, strict=True)
        ):
            reason = "frozen"
            break
    tie = None
    if winner < 0:
        winner, tie = _tie_break(sides, first)
    score = sum(u.hp for u in sides[winner])  # the fallen are at 0
    return Reading(links or [[], []], stats, first, rounds, winner, reason, tie, score)


def _hits(sides: list[list[Unit]], begins: int, r: int, log: list[Step]) -> int:
    """One round's hits; the side that felled the other's last card, or -1."""
    last_acted = [-1, -1]
    turn = begins
    while True:
        actor = _next_to_act(sides[turn], last_acted[turn])
        if actor is None:
            other = 1 - turn
            if _next_to_act(sides[other], last_acted[other]) is None:
                return -1
            turn = other
            continue
        last_acted[turn] = actor
        if _act(sides, turn, actor, r, log):
            return turn
        turn = 1 - turn


def _next_to_act(side: list[Unit], after: int) -> int | None:
    for i in range(after + 1, len(side)):
        if side[i].hp > 0:
            return i
    return None


def _act(sides: list[list[Unit]], me: int, slot: int, r: int, log: list[Step]) -> bool:
    """Card `slot` of side `me` acts; True when the other side has no card left."""
    unit, foes = sides[me][slot], sides[1 - me]
    living_foes = _living(foes)
    front = living_foes[0]
    damage = max(1, unit.atk + _ramp(r) - foes[front].arm // 2)
    kind = "front"
    if "carry" in unit.roles and _living(sides[me])[0] == slot:
        damage, kind = _half_up(damage), "carry_front"
    if _strike(sides, me, slot, front, kind, damage, r, log):
        return True
    if "nuker" in unit.roles and len(living_foes := _living(foes)) > 1:
        back = living_foes[-1]
        damage = _half_up(max(1, unit.atk + _ramp(r) - foes[back].arm // 2))
        return _strike(sides, me, slot, back, "back", damage, r, log)
    return False


def _strike(
    sides: list[list[Unit]], me: int, slot: int, target: int, kind: str, damage: int, r: int, log: list[Step]
) -> bool:
    foe = sides[1 - me][target]
    log.append(("hit", me, slot, target, kind, damage))
    foe.hp = max(0, foe.hp - damage)
    if foe.hp == 0:
        log.append(("died", 1 - me, target))
    return not any(u.hp for u in sides[1 - me])


def _heals(sides: list[list[Unit]], begins: int, amount: int, log: list[Step]) -> None:
    if amount == 0:
        return
    for s in (begins, 1 - begins):
        side = sides[s]
        for k, unit in enumerate(side):
            if unit.hp <= 0 or "support" not in unit.roles:
                continue
            allies = [j for j in _living(side) if j != k]
            if not allies:
                continue
            target = min(allies, key=lambda j: (side[j].hp, j))
            gain = min(amount, side[target].max_hp - side[target].hp)
            if gain > 0:
                side[target].hp += gain
                log.append(("healed", s, k, target, gain))


def _tie_break(sides: list[list[Unit]], first: int) -> tuple[int, str]:
    def totals(side: list[Unit]) -> list[int]:
        up = [u for u in side if u.hp > 0]
        return [len(up), sum(u.atk for u in up), sum(u.hp for u in up), sum(u.arm for u in up)]

    a, b = totals(sides[0]), totals(sides[1])
    for name, x, y in zip(("living_cards", "living_atk", "current_hp", "armour"), a, b, strict=True):
        if x != y:
            return (0 if x > y else 1), name
    return 1 - first, "technical"
