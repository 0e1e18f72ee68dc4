"""The fight, resolved whole: every hit, death and heal as an event, and the state they lead to.

Hot path (the bench's, issue 23): `play` works on plain lists indexed [side][slot] and writes each event
once, in order; nothing is folded again and no dataclass is copied while it runs. The rules are
docs/line.md's; `appliers.evolve` folds the same events without re-deciding anything, and
tests/unit/line/test_line_differential.py checks that events, winner, score and state equal those of the
reference resolver (tests/unit/line/reference.py) over thousands of random fights.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from operator import ge
from typing import Any, NamedTuple

from .constants import MAX_ROUNDS, EndReason, Ev, Hit, Role, TieBreak, heal_amount, ramp
from .links import Fighter
from .state import Pair, State

Event = dict[str, Any]
Add = Callable[[Event], None]
Rows = tuple[list[int], list[int]]  # one list per side, indexed by slot
Strikes = tuple[bool, ...]  # is each of a card's hits the back hit
FRONT_ONLY: Strikes = (False,)
FRONT_AND_BACK: Strikes = (False, True)

ROUND_STARTED, CARD_HIT, CARD_DIED = Ev.ROUND_STARTED.value, Ev.CARD_HIT.value, Ev.CARD_DIED.value
CARD_HEALED, ROUND_ENDED, MATCH_ENDED = Ev.CARD_HEALED.value, Ev.ROUND_ENDED.value, Ev.MATCH_ENDED.value
FRONT, CARRY_FRONT, BACK = Hit.FRONT.value, Hit.CARRY_FRONT.value, Hit.BACK.value
CARRY, NUKER, SUPPORT = Role.CARRY.value, Role.NUKER.value, Role.SUPPORT.value
LINE_FELL, FROZEN, ROUND_LIMIT = (
    EndReason.LINE_FELL.value,
    EndReason.FROZEN.value,
    EndReason.ROUND_LIMIT.value,
)


class Outcome(NamedTuple):
    """What a resolved fight leaves besides its events: the `State` fields of the same names."""

    hp: tuple[tuple[int, ...], tuple[int, ...]]
    round: int
    begins: int
    winner: str
    loser: str
    reason: str
    tie_break: str | None
    score: int
    damage: Pair
    kills: Pair
    healed: Pair
    hits: Pair


def resolve(opening: State) -> tuple[list[Event], State]:
    """Fight out the lines of `opening` (the state right after FightStarted): the events, and the state
    they lead to (built from the resolution's own arrays, not by folding the events)."""
    events, out = play(opening.pids, opening.first, opening.fighters)
    return events, ended(opening, out, (*opening.record, *events))


def ended(opening: State, out: Outcome, record: tuple[Mapping[str, Any], ...]) -> State:
    """`opening` with the outcome of its fight and its whole record (built directly: a
    `dataclasses.replace` costs about as much as the rest of the setup of a fight)."""
    return State(
        match_id=opening.match_id,
        seed=opening.seed,
        pids=opening.pids,
        first=opening.first,
        lines=opening.lines,
        fighters=opening.fighters,
        links=opening.links,
        hp=out.hp,
        round=out.round,
        begins=out.begins,
        ended=True,
        winner=out.winner,
        loser=out.loser,
        reason=out.reason,
        tie_break=out.tie_break,
        score=out.score,
        damage=out.damage,
        kills=out.kills,
        healed=out.healed,
        hits=out.hits,
        record=record,
        rules=opening.rules,
    )


def play(
    pids: tuple[str, str], first: int, fighters: tuple[Sequence[Fighter], Sequence[Fighter]]
) -> tuple[list[Event], Outcome]:
    """The events of the fight between two sides of baked fighters (`first`: the side acting first in
    round 1), RoundStarted to MatchEnded, and its outcome.

    A hit is max(1, ATK + ramp - ARM // 2); a carry on its own front and a nuker's back hit take half of
    it, rounded up (at least 1). Lines of any length from 1 work (the rules ask for five; tests use
    shorter ones)."""
    atk, half, hp, top, carry, strikes, supports = zip(
        _columns(fighters[0]), _columns(fighters[1]), strict=True
    )
    lo, hi, alive = [0, 0], [len(hp[0]) - 1, len(hp[1]) - 1], [len(hp[0]), len(hp[1])]
    dealt, hits, kills, healed = [0, 0], [0, 0], [0, 0], [0, 0]
    healers = bool(supports[0] or supports[1])
    events: list[Event] = []
    add = events.append
    r, begins, winner, reason = 0, first, -1, ROUND_LIMIT
    while r < MAX_ROUNDS:
        r += 1
        begins = first if r % 2 else 1 - first
        rp, heal = ramp(r), heal_amount(r)
        add({"type": ROUND_STARTED, "round": r, "first": pids[begins], "ramp": rp, "heal": heal})
        # a frozen round needs heals (none after round 10: every round has a hit of at least 1)
        before = (hp[0][:], hp[1][:]) if heal else None
        given = dealt[0] + dealt[1] - healed[0] - healed[1]
        winner = _hits(
            r, rp, begins, pids, atk, half, hp, carry, strikes, lo, hi, alive, dealt, hits, kills, add
        )
        if winner >= 0:
            reason = LINE_FELL
            break
        if heal and healers:
            _heal(r, heal, begins, pids, hp, top, supports, healed, add)
        add({"type": ROUND_ENDED, "round": r})
        # frozen: no card lower than at the round's start, so no more lost than healed in the round
        if (
            before is not None
            and dealt[0] + dealt[1] - healed[0] - healed[1] <= given
            and _frozen(hp, before)
        ):
            reason = FROZEN
            break
    tie = None
    if winner < 0:
        arm = ([f.arm for f in fighters[0]], [f.arm for f in fighters[1]])
        winner, tie = tie_break(list(atk), list(arm), list(hp), first)
    score = sum(hp[winner])  # the fallen are at 0
    add(
        {
            "type": MATCH_ENDED,
            "round": r,
            "winner": pids[winner],
            "loser": pids[1 - winner],
            "reason": reason,
            "tie_break": tie,
            "score": score,
        }
    )
    out = Outcome(
        (tuple(hp[0]), tuple(hp[1])),
        r,
        begins,
        pids[winner],
        pids[1 - winner],
        reason,
        tie,
        score,
        (dealt[0], dealt[1]),
        (kills[0], kills[1]),
        (healed[0], healed[1]),
        (hits[0], hits[1]),
    )
    return events, out


def _columns(side: Sequence[Fighter]) -> tuple[list[Any], ...]:
    """One side as columns: ATK, half armour, HP, max HP, carry?, its strikes (front, and back for a
    nuker), and its support slots (one loop: a comprehension a column cost twice as much)."""
    atk, half, hp, carry, strikes, supports = [], [], [], [], [], []
    for k, f in enumerate(side):
        roles = f.roles
        atk.append(f.atk)
        half.append(f.arm // 2)
        hp.append(f.hp)
        carry.append(CARRY in roles)
        strikes.append(FRONT_AND_BACK if NUKER in roles else FRONT_ONLY)
        if SUPPORT in roles:
            supports.append(k)
    return atk, half, hp, hp[:], carry, strikes, supports


def _hits(
    r: int,
    rp: int,
    begins: int,
    pids: tuple[str, str],
    atk: Rows,
    half: Rows,
    hp: Rows,
    carry: tuple[list[bool], list[bool]],
    strikes: tuple[list[Strikes], list[Strikes]],
    lo: list[int],
    hi: list[int],
    alive: list[int],
    dealt: list[int],
    hits: list[int],
    kills: list[int],
    add: Add,
) -> int:
    """The hits of round `r`, in order: sides alternate seat by seat from `begins`; once one side has
    no card left to act, the other's act in a row. The side that felled the other's last card, or -1.
    `hp`, `lo`/`hi` (each side's leftmost/rightmost living slot), `alive` and the counts are updated."""
    nxt = [0, 0]  # each side's next slot that may act
    s = begins
    alone = False  # one side is done: the other acts on
    while True:
        row, k = hp[s], nxt[s]
        n = len(row)
        while k < n and row[k] <= 0:
            k += 1
        if k == n:
            if alone:
                return -1
            alone, s = True, 1 - s
            continue
        nxt[s] = k + 1
        o = 1 - s
        me, foe, foe_hp, foe_half = pids[s], pids[o], hp[o], half[o]
        power = atk[s][k] + rp
        for back in strikes[s][k]:  # the hit into the front, then a nuker's back hit
            if back:
                if alive[o] < 2:
                    break
                t = hi[o]
                d = power - foe_half[t]
                d, kind = ((d + 1) // 2 if d > 1 else 1), BACK
            else:
                t = lo[o]
                d = power - foe_half[t]
                if d < 1:
                    d = 1
                kind = FRONT
                if carry[s][k] and lo[s] == k:
                    d, kind = (d + 1) // 2, CARRY_FRONT
            add(
                {
                    "type": CARD_HIT,
                    "round": r,
                    "player_id": me,
                    "slot": k,
                    "target_player": foe,
                    "target": t,
                    "hit": kind,
                    "damage": d,
                }
            )
            dealt[s] += d
            hits[s] += 1
            left = foe_hp[t] - d
            if left > 0:
                foe_hp[t] = left
                continue
            kills[s] += 1
            if _fall(r, o, t, foe, foe_hp, lo, hi, alive, add):
                return s
        if not alone:
            s = o


def _fall(
    r: int,
    o: int,
    t: int,
    foe: str,
    foe_hp: list[int],
    lo: list[int],
    hi: list[int],
    alive: list[int],
    add: Add,
) -> bool:
    """Card `t` of side `o` falls: its CardDied, the side's living bounds moved. True when it was the
    side's last living card."""
    foe_hp[t] = 0
    add({"type": CARD_DIED, "round": r, "player_id": foe, "slot": t})
    alive[o] -= 1
    if not alive[o]:
        return True
    while foe_hp[lo[o]] <= 0:
        lo[o] += 1
    while foe_hp[hi[o]] <= 0:
        hi[o] -= 1
    return False


def _frozen(hp: Rows, before: Rows) -> bool:
    """No card has less HP than at the round's start."""
    return all(map(ge, hp[0], before[0])) and all(map(ge, hp[1], before[1]))


def _heal(
    r: int,
    amount: int,
    begins: int,
    pids: tuple[str, str],
    hp: Rows,
    top: Rows,
    supports: tuple[list[int], list[int]],
    healed: list[int],
    add: Add,
) -> None:
    """Each living support heals the living ally (not itself) with the lowest current HP, leftmost on
    ties; the side that began the round first, each side left to right; never above max HP."""
    for s in (begins, 1 - begins):
        row = hp[s]
        for k in supports[s]:
            if row[k] <= 0:
                continue
            target, low = -1, 0
            for j, h in enumerate(row):
                if h > 0 and j != k and (target < 0 or h < low):
                    target, low = j, h
            if target < 0:
                continue
            gain = min(amount, top[s][target] - low)
            if gain > 0:
                row[target] = low + gain
                healed[s] += gain
                add(
                    {
                        "type": CARD_HEALED,
                        "round": r,
                        "player_id": pids[s],
                        "slot": k,
                        "target": target,
                        "amount": gain,
                    }
                )


def tie_break(atk: list[list[int]], arm: list[list[int]], hp: list[list[int]], first: int) -> tuple[int, str]:
    """The winning side and the first criterion that separated the sides: more living cards, then
    higher total living ATK, current HP, armour; all equal, the side that acted first in round 1 loses."""
    keys = []
    for s in (0, 1):
        living = [k for k, h in enumerate(hp[s]) if h > 0]
        keys.append(
            (
                len(living),
                sum(atk[s][k] for k in living),
                sum(hp[s][k] for k in living),
                sum(arm[s][k] for k in living),
            )
        )
    criteria = (TieBreak.LIVING_CARDS, TieBreak.LIVING_ATK, TieBreak.CURRENT_HP, TieBreak.ARMOUR)
    for i, criterion in enumerate(criteria):
        if keys[0][i] != keys[1][i]:
            return (0 if keys[0][i] > keys[1][i] else 1), criterion.value
    return 1 - first, TieBreak.TECHNICAL.value
