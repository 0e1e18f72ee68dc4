"""`evolve` and `fold`: apply the fight's events to a state, one applier per event type. The input state is
never modified; the events are facts, so nothing here decides anything again."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from libs.games.sdk.plumbing import Applier, evolver, fold_with

from .constants import Ev
from .links import ActiveLink, Fighter
from .state import State

Event = Mapping[str, Any]


def evolve(state: State | None, event: Event) -> State:
    """The state after `event` (FightStarted starts from nothing: `state` may be None), the event added
    to its record. Raises ValueError for an event that does not fit the state."""
    after = _evolve(state, event)
    return after if state is None else replace(after, record=(*state.record, event))


def fold(events: Iterable[Event]) -> State:
    """The state a whole event stream leads to (starting with FightStarted); ValueError for no events."""
    return fold_with(evolve, events)


def _fight_started(e: Event) -> State:
    players = e["players"]
    pids = (players[0]["id"], players[1]["id"])
    sides = [
        tuple(Fighter(f["card_id"], tuple(f["roles"]), f["atk"], f["arm"], f["hp"]) for f in p["fighters"])
        for p in players
    ]
    links = [
        tuple(
            ActiveLink(x["id"], x["tier"], tuple(x["slots"]), tuple(tuple(b) for b in x["bonus"]))
            for x in p["links"]
        )
        for p in players
    ]
    return State(
        match_id=e["match_id"],
        seed=e["seed"],
        pids=pids,
        first=pids.index(e["first"]),
        lines=(tuple(players[0]["line"]), tuple(players[1]["line"])),
        fighters=(sides[0], sides[1]),
        links=(links[0], links[1]),
        hp=(tuple(f.hp for f in sides[0]), tuple(f.hp for f in sides[1])),
        record=(e,),
        rules=e.get("rules", 1),
    )


def _bump(pair: tuple[int, int], side: int, by: int) -> tuple[int, int]:
    return (pair[0] + by, pair[1]) if side == 0 else (pair[0], pair[1] + by)


def _set_hp(state: State, side: int, slot: int, value: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    row = list(state.hp[side])
    row[slot] = value
    return (tuple(row), state.hp[1]) if side == 0 else (state.hp[0], tuple(row))


def _round_started(s: State, e: Event) -> State:
    return replace(s, round=e["round"], begins=s.side(e["first"]))


def _card_hit(s: State, e: Event) -> State:
    side, target = s.side(e["player_id"]), s.side(e["target_player"])
    if side == target:
        raise ValueError("a card hits the other side")
    damage = e["damage"]
    return replace(
        s,
        hp=_set_hp(s, target, e["target"], max(0, s.hp[target][e["target"]] - damage)),
        damage=_bump(s.damage, side, damage),
        hits=_bump(s.hits, side, 1),
    )


def _card_died(s: State, e: Event) -> State:
    side = s.side(e["player_id"])
    if s.hp[side][e["slot"]] > 0:
        raise ValueError("only a card at 0 HP dies")
    return replace(s, kills=_bump(s.kills, 1 - side, 1))


def _card_healed(s: State, e: Event) -> State:
    side, slot = s.side(e["player_id"]), e["target"]
    hp = s.hp[side][slot] + e["amount"]
    if hp > s.fighters[side][slot].hp:
        raise ValueError("a heal never passes max HP")
    return replace(s, hp=_set_hp(s, side, slot, hp), healed=_bump(s.healed, side, e["amount"]))


def _round_ended(s: State, e: Event) -> State:
    return s


def _fight_ended(s: State, e: Event) -> State:
    return replace(
        s,
        ended=True,
        winner=e["winner"],
        loser=e["loser"],
        reason=e["reason"],
        tie_break=e["tie_break"],
        score=e["score"],
    )


_APPLIERS: dict[str, Applier[State]] = {
    Ev.ROUND_STARTED.value: _round_started,
    Ev.CARD_HIT.value: _card_hit,
    Ev.CARD_DIED.value: _card_died,
    Ev.CARD_HEALED.value: _card_healed,
    Ev.ROUND_ENDED.value: _round_ended,
    Ev.MATCH_ENDED.value: _fight_ended,
}
_evolve = evolver(Ev.FIGHT_STARTED.value, _fight_started, _APPLIERS, lambda s: s.ended)
