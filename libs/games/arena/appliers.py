"""`evolve` and `fold`: apply the match's events to a state, one applier per event type. The input state
is never modified; the events are facts (every random outcome is in them), so nothing is decided again."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from libs.games.sdk.plumbing import Applier, evolver, fold_with

from .constants import MAX_LIFE, Bonus, Ev, Phase
from .state import Attack, State, Stats, put, replace

Event = Mapping[str, Any]


def evolve(state: State | None, event: Event) -> State:
    """The state after `event`. MatchStarted starts from nothing (`state` may be None). Raises ValueError
    for an event that does not fit the state."""
    return _evolve(state, event)


def fold(events: Iterable[Event]) -> State:
    """The state a whole event stream leads to (starting with MatchStarted); ValueError for no events."""
    return fold_with(evolve, events)


def _match_started(e: Event) -> State:
    pids = tuple(e["players"])
    n = len(pids)
    return State(
        match_id=e["match_id"],
        seed=e["seed"],
        pids=pids,
        first=pids.index(e["first"]),
        wins=(0,) * n,
        in_match=(True,) * n,
        in_round=(False,) * n,
        life=(0,) * n,
        hands=((),) * n,
        wards=(frozenset(),) * n,
        stats=(Stats(),) * n,
    )


def _without(cards: tuple[str, ...], gone: Iterable[str]) -> tuple[str, ...]:
    out = list(cards)
    for card in gone:
        out.remove(card)  # ValueError: the card is not there
    return tuple(out)


def _hand(s: State, seat: int, hand: tuple[str, ...], **changes: Any) -> State:
    return replace(s, hands=put(s.hands, seat, hand), **changes)


def _stat(s: State, seat: int, **by: int) -> tuple[Stats, ...]:
    return put(s.stats, seat, s.stats[seat].bump(**by))


def _round_started(s: State, e: Event) -> State:
    pile = tuple(e["pile"])
    n = len(s.pids)
    return replace(
        s,
        round=e["round"],
        round_first=s.seat(e["first"]),
        in_round=s.in_match,
        life=tuple(MAX_LIFE if s.in_match[i] else 0 for i in range(n)),
        hands=((),) * n,
        pile=pile,
        discard=(),
        removed=(),
        wards=(frozenset(),) * n,
        pending=(),
        bonus=None,
        phase=Phase.ACTION.value,
        randoms=s.randoms + 1,
    )


def _card_drawn(s: State, e: Event) -> State:
    seat, card = s.seat(e["player_id"]), e["card"]
    if not s.pile or s.pile[0] != card:
        raise ValueError("a card is drawn from the top of the pile")
    return _hand(s, seat, (*s.hands[seat], card), pile=s.pile[1:])


def _pile_rebuilt(s: State, e: Event) -> State:
    removed, pile = tuple(e["removed"]), tuple(e["pile"])
    if s.pile or sorted(s.discard) != sorted((*removed, *pile)):
        raise ValueError("an empty pile is rebuilt from the whole discard pile")
    return replace(s, pile=pile, discard=(), removed=s.removed + removed, randoms=s.randoms + 1)


def _turn_started(s: State, e: Event) -> State:
    seat = s.seat(e["player_id"])
    return replace(
        s,
        active=seat,
        turn=e["turn"],
        phase=Phase.ACTION.value,
        start_hand=len(s.hands[seat]),
        swapped=False,
        bonus=None,
        wards=put(s.wards, seat, frozenset()),
        stats=_stat(s, seat, turns=1),
    )


def _card_played(s: State, e: Event) -> State:
    seat, card = s.seat(e["player_id"]), e["card"]
    hand = _without(s.hands[seat], [card])
    return _hand(s, seat, hand, discard=(*s.discard, card), stats=_stat(s, seat, cards_played=1))


def _combo_played(s: State, e: Event) -> State:
    seat, cards = s.seat(e["player_id"]), tuple(e["cards"])
    hand = _without(s.hands[seat], cards)
    return _hand(s, seat, hand, discard=s.discard + cards, bonus=e["bonus"], stats=_stat(s, seat, combos=1))


def _card_stolen(s: State, e: Event) -> State:
    thief, victim, card = s.seat(e["player_id"]), s.seat(e["victim"]), e["card"]
    s = _hand(s, victim, _without(s.hands[victim], [card]))
    return _hand(
        s, thief, (*s.hands[thief], card), randoms=s.randoms + 1, stats=_stat(s, thief, cards_stolen=1)
    )


def _card_taken(s: State, e: Event) -> State:
    seat, card = s.seat(e["player_id"]), e["card"]
    return _hand(s, seat, (*s.hands[seat], card), discard=_without(s.discard, [card]))


def _attack_declared(s: State, e: Event) -> State:
    attack = Attack(e["attack"], s.seat(e["attacker"]), s.seat(e["target"]), e["damage"], e["source"])
    return replace(s, pending=(*s.pending, attack), attacks=attack.number)


def _window_opened(s: State, e: Event) -> State:
    if not s.pending or s.pending[0].number != e["attack"] or s.pids[s.pending[0].target] != e["player_id"]:
        raise ValueError("a window opens for the target of the next attack")
    return replace(s, phase=Phase.REACTION.value)


def _reaction_played(s: State, e: Event) -> State:
    seat, card = s.seat(e["player_id"]), e["card"]
    hand = _without(s.hands[seat], [card])
    return _hand(s, seat, hand, discard=(*s.discard, card), stats=_stat(s, seat, reactions=1))


def _reaction_passed(s: State, e: Event) -> State:
    return s


def _attack_done(s: State, e: Event) -> State:
    if not s.pending or s.pending[0].number != e["attack"]:
        raise ValueError("attacks resolve in order")
    return replace(s, pending=s.pending[1:], phase=Phase.ACTION.value)


def _life_lost(s: State, e: Event) -> State:
    seat = s.seat(e["player_id"])
    stats = s.stats
    by = e.get("by")
    if by is not None and by != e["player_id"]:
        stats = _stat(s, s.seat(by), damage_dealt=e["amount"])
    return replace(s, life=put(s.life, seat, e["life"]), stats=stats)


def _life_gained(s: State, e: Event) -> State:
    if e["life"] > MAX_LIFE:
        raise ValueError(f"life never exceeds {MAX_LIFE}")
    return replace(s, life=put(s.life, s.seat(e["player_id"]), e["life"]))


def _ward_raised(s: State, e: Event) -> State:
    seat = s.seat(e["player_id"])
    return replace(s, wards=put(s.wards, seat, s.wards[seat] | {e["ward"]}))


def _bonus_taken(s: State, e: Event) -> State:
    if e["bonus"] not in (Bonus.DRAW, Bonus.LIFE) or s.bonus != e["bonus"]:
        raise ValueError("the bonus taken is the one the combo chose")
    return replace(s, bonus=None)


def _action_ended(s: State, e: Event) -> State:
    return replace(s, phase=Phase.DISCARD.value)


def _card_discarded(s: State, e: Event) -> State:
    seat, card = s.seat(e["player_id"]), e["card"]
    swapped = s.swapped or e["reason"] == "swap"
    return _hand(s, seat, _without(s.hands[seat], [card]), discard=(*s.discard, card), swapped=swapped)


def _marker(s: State, e: Event) -> State:
    return s


def _player_out(s: State, e: Event) -> State:
    seat = s.seat(e["player_id"])
    cards = tuple(e["cards"])
    if sorted(cards) != sorted(s.hands[seat]):
        raise ValueError("a player out of the round discards the whole hand")
    return _hand(
        s,
        seat,
        (),
        in_round=put(s.in_round, seat, False),
        discard=s.discard + cards,
        wards=put(s.wards, seat, frozenset()),
    )


def _player_left(s: State, e: Event) -> State:
    s = _player_out(s, e)
    seat = s.seat(e["player_id"])
    return replace(s, in_match=put(s.in_match, seat, False), left=(*s.left, e["player_id"]))


def _round_won(s: State, e: Event) -> State:
    return replace(s, wins=put(s.wins, s.seat(e["player_id"]), e["wins"]))


def _match_ended(s: State, e: Event) -> State:
    return replace(
        s,
        ended=True,
        phase=Phase.ENDED.value,
        winner=e["winner"],
        reason=e["reason"],
        placements=tuple(tuple(group) for group in e["placements"]),
        pending=(),
    )


_APPLIERS: dict[str, Applier[State]] = {
    Ev.ROUND_STARTED.value: _round_started,
    Ev.CARD_DRAWN.value: _card_drawn,
    Ev.NOTHING_DRAWN.value: _marker,
    Ev.PILE_REBUILT.value: _pile_rebuilt,
    Ev.TURN_STARTED.value: _turn_started,
    Ev.CARD_PLAYED.value: _card_played,
    Ev.COMBO_PLAYED.value: _combo_played,
    Ev.CARD_STOLEN.value: _card_stolen,
    Ev.CARD_TAKEN.value: _card_taken,
    Ev.ATTACK_DECLARED.value: _attack_declared,
    Ev.REACTION_WINDOW_OPENED.value: _window_opened,
    Ev.REACTION_PLAYED.value: _reaction_played,
    Ev.REACTION_PASSED.value: _reaction_passed,
    Ev.ATTACK_RESOLVED.value: _attack_done,
    Ev.ATTACK_CANCELLED.value: _attack_done,
    Ev.LIFE_LOST.value: _life_lost,
    Ev.LIFE_GAINED.value: _life_gained,
    Ev.WARD_RAISED.value: _ward_raised,
    Ev.BONUS_TAKEN.value: _bonus_taken,
    Ev.ACTION_ENDED.value: _action_ended,
    Ev.CARD_DISCARDED.value: _card_discarded,
    Ev.TURN_TIMED_OUT.value: _marker,
    Ev.TURN_ENDED.value: _marker,
    Ev.PLAYER_OUT.value: _player_out,
    Ev.PLAYER_LEFT.value: _player_left,
    Ev.ROUND_WON.value: _round_won,
    Ev.ROUND_REPLAYED.value: _marker,
    Ev.MATCH_ENDED.value: _match_ended,
}
_evolve = evolver(Ev.MATCH_STARTED.value, _match_started, _APPLIERS, lambda s: s.ended)
