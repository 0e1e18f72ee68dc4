"""`evolve` and `fold`: apply events to a state. The input state is never modified; every applier
returns a new state (copy-on-write, see `state`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .cards import CATALOG
from .constants import HERO, MAX_HEALTH
from .names import (
    ARCANA_REVEALED,
    ATTACK_RESOLVED,
    CARD_DRAWN,
    CARD_PLAYED,
    DAMAGE_DEALT,
    DECK_SHUFFLED,
    ENDED,
    HERO_DRAINED,
    HERO_HEALED,
    MANA_REFILLED,
    MATCH_ENDED,
    MATCH_STARTED,
    MULLIGAN_COMPLETED,
    PLAYING,
    SPELL_CAST,
    TURN_ENDED,
    TURN_STARTED,
    TURN_TIMED_OUT,
    UNIT_BUFFED,
    UNIT_DIED,
    UNIT_SUMMONED,
    WARD,
    WARD_BROKEN,
)
from .state import PlayerState, State, Unit


def evolve(state: State | None, event: Mapping[str, Any]) -> State:
    """The state after `event`. A MatchStarted event starts from nothing (`state` may be None); the input
    state is never modified. Raises ValueError for an event that does not fit the state."""
    kind = event.get("type")
    if kind == MATCH_STARTED:
        return _match_started(event)
    if state is None:
        raise ValueError("the first event of a match is MatchStarted")
    apply = _APPLIERS.get(kind)  # type: ignore[arg-type]
    if apply is None:
        raise ValueError(f"unknown event type {kind!r}")
    return apply(state, event)


def fold(events: Iterable[Mapping[str, Any]]) -> State:
    """The state a whole event stream leads to (starting with MatchStarted); raises ValueError for no
    events or one that does not fit."""
    state: State | None = None
    for event in events:
        state = evolve(state, event)
    if state is None:
        raise ValueError("no events")
    return state


def fold_onto(state: State, events: Iterable[Mapping[str, Any]]) -> State:
    """`state` after `events` (raises ValueError as `evolve` does)."""
    for event in events:
        state = evolve(state, event)
    return state


def _match_started(e: Mapping[str, Any]) -> State:
    players = []
    cards = {}
    for p in e["players"]:
        players.append(PlayerState(p["id"], tuple(p["instances"])))
        cards.update({iid: CATALOG[c] for iid, c in zip(p["instances"], p["deck"], strict=True)})
    pids = [p.id for p in players]
    return State(
        e["match_id"],
        e["seed"],
        (players[0], players[1]),
        cards,
        pids.index(e["first"]),
        tuple(e["arcana"]),
        e["shuffle"],
    )


def _side(state: State, pid: str) -> int:
    return 0 if pid == state.pids[0] else 1


def _put(state: State, index: int, player: PlayerState, **changes: Any) -> State:
    players = (player, state.players[1]) if index == 0 else (state.players[0], player)
    return state._with(players=players, **changes)


def _deck_shuffled(s: State, e: Mapping[str, Any]) -> State:
    i = _side(s, e["player_id"])
    p = s.players[i]
    order = tuple(e["order"])
    if sorted(order) != sorted(p.deck):
        raise ValueError("a shuffled deck holds the same cards")
    return _put(s, i, p._with(deck=order))


def _card_drawn(s: State, e: Mapping[str, Any]) -> State:
    i = _side(s, e["player_id"])
    p = s.players[i]
    iid = e["card"]
    deck = p.deck
    deck = deck[1:] if deck and deck[0] == iid else tuple(c for c in deck if c != iid)
    return _put(s, i, p._with(deck=deck, hand=(*p.hand, iid), cards_drawn=p.cards_drawn + 1))


def _arcana_revealed(s: State, e: Mapping[str, Any]) -> State:
    return s._with(revealed=e["index"] + 1)


def _mulligan_completed(s: State, e: Mapping[str, Any]) -> State:
    i = _side(s, e["player_id"])
    p = s.players[i]
    returned = tuple(e["returned"])
    hand = tuple(c for c in p.hand if c not in returned)
    return _put(s, i, p._with(hand=hand, deck=p.deck + returned, mulligan_done=True))


def _turn_started(s: State, e: Mapping[str, Any]) -> State:
    i = _side(s, e["player_id"])
    p = s.players[i]
    return _put(s, i, p._with(turns=p.turns + 1), phase=PLAYING, turn=e["turn"], round=e["round"], active=i)


def _hero_drained(s: State, e: Mapping[str, Any]) -> State:
    n = e["amount"]
    p0, p1 = s.players
    return s._with(players=(p0._with(hero=p0.hero - n), p1._with(hero=p1.hero - n)))


def _mana_refilled(s: State, e: Mapping[str, Any]) -> State:
    i = _side(s, e["player_id"])
    return _put(s, i, s.players[i]._with(max_mana=e["max_mana"], mana=e["mana"]))


def _card_played(s: State, e: Mapping[str, Any]) -> State:
    i = _side(s, e["player_id"])
    p = s.players[i]
    iid = e["card"]
    card = s.cards[iid]
    changes: dict[str, Any] = {"hand": tuple(c for c in p.hand if c != iid), "mana": p.mana - e["cost"]}
    if card.type == "unit":
        tribe = card.tribe or "none"
        changes["units_played"] = {**p.units_played, tribe: p.units_played.get(tribe, 0) + 1}
    return _put(s, i, p._with(**changes))


def _unit_summoned(s: State, e: Mapping[str, Any]) -> State:
    i = _side(s, e["player_id"])
    p = s.players[i]
    iid = e["unit"]
    card = s.cards[iid]
    unit = Unit(iid, card, e["attack"], e["health"], e["health"], card.keyword == WARD, s.turn)
    pos = e["position"]
    return _put(s, i, p._with(board=(*p.board[:pos], unit, *p.board[pos:])))


def _replace_unit(s: State, pid: str, iid: str, change: Callable[[Unit], Unit]) -> State:
    i = _side(s, pid)
    p = s.players[i]
    board = p.board
    for k, u in enumerate(board):
        if u.id == iid:
            return _put(s, i, p._with(board=(*board[:k], change(u), *board[k + 1 :])))
    raise ValueError(f"no unit {iid} on {pid}'s board")


def _unit_buffed(s: State, e: Mapping[str, Any]) -> State:
    a, h = e["attack"], e["health"]
    return _replace_unit(
        s,
        e["player_id"],
        e["unit"],
        lambda u: Unit(
            u.id, u.card, u.attack + a, u.health + h, u.max_health + h, u.ward, u.played_turn, u.attacked_turn
        ),
    )


def _spell_cast(s: State, e: Mapping[str, Any]) -> State:
    i = _side(s, e["player_id"])
    p = s.players[i]
    return _put(s, i, p._with(grave=(*p.grave, e["card"]), spells_cast=p.spells_cast + 1))


def _attack_resolved(s: State, e: Mapping[str, Any]) -> State:
    turn = s.turn
    return _replace_unit(
        s,
        e["player_id"],
        e["attacker"],
        lambda u: Unit(u.id, u.card, u.attack, u.health, u.max_health, u.ward, u.played_turn, turn),
    )


def _damage_dealt(s: State, e: Mapping[str, Any]) -> State:
    n = e["amount"]
    if e["target"] == HERO:
        i = _side(s, e["player_id"])
        p, foe = s.players[i], s.players[1 - i]
        hit = p._with(hero=p.hero - n)
        other = foe._with(hero_damage=foe.hero_damage + n)
        return s._with(players=(hit, other) if i == 0 else (other, hit))
    return _replace_unit(
        s,
        e["player_id"],
        e["target"],
        lambda u: Unit(
            u.id, u.card, u.attack, u.health - n, u.max_health, u.ward, u.played_turn, u.attacked_turn
        ),
    )


def _ward_broken(s: State, e: Mapping[str, Any]) -> State:
    return _replace_unit(
        s,
        e["player_id"],
        e["unit"],
        lambda u: Unit(u.id, u.card, u.attack, u.health, u.max_health, False, u.played_turn, u.attacked_turn),
    )


def _hero_healed(s: State, e: Mapping[str, Any]) -> State:
    i = _side(s, e["player_id"])
    p = s.players[i]
    return _put(s, i, p._with(hero=min(MAX_HEALTH, p.hero + e["amount"])))


def _unit_died(s: State, e: Mapping[str, Any]) -> State:
    i = _side(s, e["player_id"])
    p, foe = s.players[i], s.players[1 - i]
    iid = e["unit"]
    hit = p._with(board=tuple(u for u in p.board if u.id != iid), grave=(*p.grave, iid))
    other = foe._with(units_killed=foe.units_killed + 1)
    return s._with(players=(hit, other) if i == 0 else (other, hit))


def _turn_timed_out(s: State, e: Mapping[str, Any]) -> State:
    i = _side(s, e["player_id"])
    return _put(s, i, s.players[i]._with(timeouts=e["timeouts"]))


def _turn_ended(s: State, e: Mapping[str, Any]) -> State:
    if e.get("timed_out"):
        return s
    i = _side(s, e["player_id"])
    p = s.players[i]
    return s if p.timeouts == 0 else _put(s, i, p._with(timeouts=0))


def _match_ended(s: State, e: Mapping[str, Any]) -> State:
    return s._with(phase=ENDED, winner=e["winner"], reason=e["reason"])


_APPLIERS: dict[str, Callable[[State, Mapping[str, Any]], State]] = {
    DECK_SHUFFLED: _deck_shuffled,
    CARD_DRAWN: _card_drawn,
    ARCANA_REVEALED: _arcana_revealed,
    MULLIGAN_COMPLETED: _mulligan_completed,
    TURN_STARTED: _turn_started,
    HERO_DRAINED: _hero_drained,
    MANA_REFILLED: _mana_refilled,
    CARD_PLAYED: _card_played,
    UNIT_SUMMONED: _unit_summoned,
    UNIT_BUFFED: _unit_buffed,
    SPELL_CAST: _spell_cast,
    ATTACK_RESOLVED: _attack_resolved,
    DAMAGE_DEALT: _damage_dealt,
    WARD_BROKEN: _ward_broken,
    HERO_HEALED: _hero_healed,
    UNIT_DIED: _unit_died,
    TURN_TIMED_OUT: _turn_timed_out,
    TURN_ENDED: _turn_ended,
    MATCH_ENDED: _match_ended,
}
