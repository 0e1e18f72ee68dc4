"""The line's resolution and links as they stood before the fast path (commit 91ce13d), kept verbatim as the
reference the differential test compares `libs.games.line.resolution` with. Not used by the package."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from operator import ge
from typing import Any, Final

from libs.games.line.catalog import Card
from libs.games.line.constants import MAX_ROUNDS, EndReason, Ev, Hit, Link, Role, Tag, heal_amount, ramp
from libs.games.line.links import ActiveLink, Bonus, Fighter
from libs.games.line.resolution import tie_break
from libs.games.line.state import State

Event = dict[str, Any]

ROUND_STARTED, CARD_HIT, CARD_DIED = Ev.ROUND_STARTED.value, Ev.CARD_HIT.value, Ev.CARD_DIED.value
CARD_HEALED, ROUND_ENDED, MATCH_ENDED = Ev.CARD_HEALED.value, Ev.ROUND_ENDED.value, Ev.MATCH_ENDED.value
FRONT, CARRY_FRONT, BACK = Hit.FRONT.value, Hit.CARRY_FRONT.value, Hit.BACK.value
CARRY, NUKER, SUPPORT = Role.CARRY.value, Role.NUKER.value, Role.SUPPORT.value
LINE_FELL = EndReason.LINE_FELL.value


def resolve(opening: State) -> tuple[list[Event], State]:
    """Fight out the lines of `opening` (the state right after FightStarted): the events, and the state
    they lead to (built from the resolution's own arrays, not by folding the events).

    A hit is max(1, ATK + ramp - ARM // 2); a carry on its own front and a nuker's back hit take half of
    it, rounded up (at least 1). Lines of any length from 1 work (the rules ask for five; tests use
    shorter ones)."""
    pids = opening.pids
    first = opening.first
    atk = [[f.atk for f in side] for side in opening.fighters]
    arm = [[f.arm for f in side] for side in opening.fighters]
    half_arm = [[f.arm // 2 for f in side] for side in opening.fighters]
    hp = [[f.hp for f in side] for side in opening.fighters]
    max_hp = [[f.hp for f in side] for side in opening.fighters]
    carry = [[CARRY in f.roles for f in side] for side in opening.fighters]
    strikes = [[(False, True) if NUKER in f.roles else (False,) for f in side] for side in opening.fighters]
    supports = [[k for k, f in enumerate(side) if SUPPORT in f.roles] for side in opening.fighters]
    size = [len(hp[0]), len(hp[1])]
    lo, hi, alive = [0, 0], [size[0] - 1, size[1] - 1], list(size)
    damage_by, kills, healed, hits = [0, 0], [0, 0], [0, 0], [0, 0]
    events: list[Event] = []
    add = events.append
    r = 0
    begins = first
    winner, reason, tie = -1, EndReason.ROUND_LIMIT.value, None
    while r < MAX_ROUNDS and winner < 0:
        r += 1
        begins = first if r % 2 else 1 - first
        rp = ramp(r)
        add({"type": ROUND_STARTED, "round": r, "first": pids[begins], "ramp": rp, "heal": heal_amount(r)})
        before = (tuple(hp[0]), tuple(hp[1]))
        nxt = [0, 0]
        s = begins
        one_side_left = False
        while winner < 0:
            # the next living card of side s to act this round, if any
            row, k, n = hp[s], nxt[s], size[s]
            while k < n and row[k] <= 0:
                k += 1
            if k == n:
                if one_side_left:
                    break
                one_side_left = True
                s = 1 - s
                continue
            nxt[s] = k + 1
            o = 1 - s
            target_hp, me, foe = hp[o], pids[s], pids[o]
            power = atk[s][k] + rp
            for back in strikes[s][k]:  # the hit into the front, then a nuker's back hit
                if back:
                    if alive[o] < 2:
                        break
                    t = hi[o]
                    d = power - half_arm[o][t]
                    d, kind = ((d + 1) // 2 if d > 1 else 1), BACK
                else:
                    t = lo[o]
                    d = power - half_arm[o][t]
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
                damage_by[s] += d
                hits[s] += 1
                left = target_hp[t] - d
                if left > 0:
                    target_hp[t] = left
                    continue
                target_hp[t] = 0
                add({"type": CARD_DIED, "round": r, "player_id": foe, "slot": t})
                kills[s] += 1
                alive[o] -= 1
                if not alive[o]:
                    winner, reason = s, LINE_FELL
                    break
                while target_hp[lo[o]] <= 0:
                    lo[o] += 1
                while target_hp[hi[o]] <= 0:
                    hi[o] -= 1
            if not one_side_left:
                s = 1 - s
        if winner >= 0:
            break
        _heal(r, begins, pids, hp, max_hp, supports, healed, add)
        add({"type": ROUND_ENDED, "round": r})
        if _frozen(hp, before):
            reason = EndReason.FROZEN.value
            break
    if winner < 0:
        winner, tie = tie_break(atk, arm, hp, first)
    score = sum(h for h in hp[winner] if h > 0)
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
    final = replace(
        opening,
        hp=(tuple(hp[0]), tuple(hp[1])),
        round=r,
        begins=begins,
        ended=True,
        winner=pids[winner],
        loser=pids[1 - winner],
        reason=reason,
        tie_break=tie,
        score=score,
        damage=(damage_by[0], damage_by[1]),
        kills=(kills[0], kills[1]),
        healed=(healed[0], healed[1]),
        hits=(hits[0], hits[1]),
        record=(*opening.record, *events),
    )
    return events, final


def _frozen(hp: list[list[int]], before: tuple[tuple[int, ...], tuple[int, ...]]) -> bool:
    """No card has less HP than at the round's start."""
    return all(map(ge, hp[0], before[0])) and all(map(ge, hp[1], before[1]))


def _heal(
    r: int,
    begins: int,
    pids: tuple[str, str],
    hp: list[list[int]],
    max_hp: list[list[int]],
    supports: list[list[int]],
    healed: list[int],
    add: Callable[[Event], None],
) -> None:
    """Each living support heals the living ally (not itself) with the lowest current HP, leftmost on
    ties; the side that began the round first, each side left to right; never above max HP."""
    amount = heal_amount(r)
    if not amount:
        return
    for s in (begins, 1 - begins):
        row, top = hp[s], max_hp[s]
        for k in supports[s]:
            if row[k] <= 0:
                continue
            target = -1
            for j, h in enumerate(row):
                if j != k and h > 0 and (target < 0 or h < row[target]):
                    target = j
            if target < 0:
                continue
            gain = min(amount, top[target] - row[target])
            if gain > 0:
                row[target] += gain
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


# The links as they stood before the fast path (commit 91ce13d), verbatim but for the imports: the
# reference of `libs.games.line.links.active_links` and `bake`.
_SUPPORTISH: Final = frozenset({Role.SUPPORT.value, Tag.HEALER.value})
_FRONTISH: Final = frozenset({Role.TANK.value, Tag.INITIATOR.value})
_DAMAGEISH: Final = frozenset({Role.CARRY.value, Role.NUKER.value})
_CONTROL: Final = frozenset({Tag.DISABLER.value, Tag.INITIATOR.value})
_NUKER: Final = frozenset({Role.NUKER.value})
_ESCAPE: Final = frozenset({Tag.ESCAPE.value})
_PUSHER: Final = frozenset({Tag.PUSHER.value})
_CARRY, _TANK = Role.CARRY.value, Role.TANK.value


def _matching(cards: Sequence[Card], wanted: frozenset[str]) -> tuple[int, ...]:
    return tuple(i for i, c in enumerate(cards) if not c.words.isdisjoint(wanted))


def _all(cards: Sequence[Card], bonus: Bonus) -> tuple[Bonus, ...]:
    return (bonus,) * len(cards)


def _anchor(cards: Sequence[Card]) -> ActiveLink | None:
    """One support or healer: everyone +1 armour."""
    slots = _matching(cards, _SUPPORTISH)
    return ActiveLink(Link.ANCHOR.value, 1, slots, _all(cards, (0, 1, 0))) if slots else None


def _classic(cards: Sequence[Card]) -> ActiveLink | None:
    """Three different cards, one tank/initiator, one carry/nuker, one support/healer: everyone +1 HP."""
    fronts, hitters, helpers = (_matching(cards, group) for group in (_FRONTISH, _DAMAGEISH, _SUPPORTISH))
    for a in fronts:
        for b in hitters:
            for c in helpers:
                if len({a, b, c}) == 3:
                    return ActiveLink(Link.CLASSIC.value, 1, tuple(sorted((a, b, c))), _all(cards, (0, 0, 1)))
    return None


def _control_net(cards: Sequence[Card]) -> ActiveLink | None:
    """Disablers and initiators: two, everyone +1 armour; three or more, +1 armour and +1 HP."""
    slots = _matching(cards, _CONTROL)
    if len(slots) >= 3:
        return ActiveLink(Link.CONTROL_NET.value, 3, slots, _all(cards, (0, 1, 1)))
    if len(slots) == 2:
        return ActiveLink(Link.CONTROL_NET.value, 2, slots, _all(cards, (0, 1, 0)))
    return None


def _nuker_choir(cards: Sequence[Card]) -> ActiveLink | None:
    """Two nukers: everyone +1 ATK."""
    slots = _matching(cards, _NUKER)
    return ActiveLink(Link.NUKER_CHOIR.value, 2, slots, _all(cards, (1, 0, 0))) if len(slots) >= 2 else None


def _slippery(cards: Sequence[Card]) -> ActiveLink | None:
    """Two escapes: those cards +1 armour."""
    slots = _matching(cards, _ESCAPE)
    if len(slots) < 2:
        return None
    bonus = tuple((0, 1, 0) if i in slots else (0, 0, 0) for i in range(len(cards)))
    return ActiveLink(Link.SLIPPERY.value, 2, slots, bonus)


def _push(cards: Sequence[Card]) -> ActiveLink | None:
    """Two pushers: carries +1 ATK, tanks -1 armour."""
    slots = _matching(cards, _PUSHER)
    if len(slots) < 2:
        return None
    bonus = tuple((int(_CARRY in c.roles), -int(_TANK in c.roles), 0) for c in cards)
    return ActiveLink(Link.PUSH.value, 2, slots, bonus)


LINKS: Final[tuple[Callable[[Sequence[Card]], ActiveLink | None], ...]] = (
    _anchor,
    _classic,
    _control_net,
    _nuker_choir,
    _slippery,
    _push,
)


def active_links(cards: Sequence[Card]) -> list[ActiveLink]:
    """The links a line lights, in the order of `Link`."""
    return [link for find in LINKS if (link := find(cards)) is not None]


def bake(cards: Sequence[Card], links: Sequence[ActiveLink]) -> tuple[Fighter, ...]:
    """Each card's stats with every active link's bonus added (armour at least 0)."""
    stats = [[c.atk, c.arm, c.hp] for c in cards]
    for link in links:
        for row, bonus in zip(stats, link.bonus, strict=True):
            row[0] += bonus[0]
            row[1] += bonus[1]
            row[2] += bonus[2]
    return tuple(
        Fighter(c.id, c.roles, atk, max(0, arm), hp) for c, (atk, arm, hp) in zip(cards, stats, strict=True)
    )
