"""A tournament's bracket (stream ``tournament-<id>``): single elimination, folded from its events and
decided by pure functions (standard library only; the game's numbers and choices come in as arguments,
from its offer's ``Tournament``).

The bracket's life: opened by its first entry; entrants are seated in the order they come; when the
seats are full, or ``fill_after`` seconds after the opening, bots take the empty seats and the seating
order is drawn (``TournamentFilled``). Each round opens a window to choose a deck from one's entry
(``TournamentRoundStarted.choose_until``); when everyone still in has chosen, or the window closes, the
deck not chosen is the default one (``chosen_by: default``) and the round's fights start (a match each,
the normal game); each fight's end is recorded, its winner advances, its loser is eliminated with the
place the round gives (in 8 seats: 5th to 8th in round 1, 3rd-4th in round 2, 2nd in the final), and
each human's place is awarded as it is settled (``TournamentPlaceAwarded``: the economy pays it). A fight
without a winner (a draw, in a game that has them) is won by the pair's first seat.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

OPENED = "TournamentOpened"
ENTERED = "TournamentEntered"
FILLED = "TournamentFilled"
ROUND_STARTED = "TournamentRoundStarted"
LINEUP_CHOSEN = "TournamentLineupChosen"
FIGHT_STARTED = "TournamentFightStarted"
FIGHT_RECORDED = "TournamentFightRecorded"
ADVANCED = "TournamentPlayerAdvanced"
ELIMINATED = "TournamentPlayerEliminated"
PLACE_AWARDED = "TournamentPlaceAwarded"
ENDED = "TournamentEnded"

Event = tuple[str, dict[str, Any]]
Prize = Callable[[int], tuple[str, int] | None]  # place -> (currency, amount), None: nothing


class BracketError(Exception):
    code = "tournament_error"
    status = 409

    def __init__(self, message: str, details: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = dict(details or {})


class NoRoundOpen(BracketError):
    """The player has no deck to choose now (not seated yet, eliminated, between rounds, ended)."""

    code = "no_round_open"


class InvalidLineup(BracketError):
    code = "invalid_lineup"
    status = 422


@dataclass(frozen=True)
class Rules:
    """The game's tournament numbers (its offer's ``Tournament``)."""

    seats: int
    fill_after: int
    choose_seconds: int


@dataclass(frozen=True)
class Entrant:
    player_id: str
    entry_id: str
    cards: tuple[str, ...]
    bot: bool = False


@dataclass(frozen=True)
class Fight:
    round: int
    players: tuple[str, str]
    match_id: str | None = None
    winner: str | None = None


@dataclass(frozen=True)
class Bracket:
    tournament_id: str
    game: str
    rules: Rules
    opened_at: datetime
    entrants: tuple[Entrant, ...] = ()
    order: tuple[str, ...] = ()  # the seating drawn at the fill; empty while filling
    round: int = 0
    choose_until: datetime | None = None
    fights: tuple[Fight, ...] = ()  # the current round's
    lineups: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # the current round's
    history: tuple[Fight, ...] = ()  # the fights of the rounds before
    places: Mapping[str, int] = field(default_factory=dict)
    ended: bool = False

    @property
    def fill_at(self) -> datetime:
        return self.opened_at + timedelta(seconds=self.rules.fill_after)

    @property
    def filling(self) -> bool:
        return not self.order

    @property
    def rounds(self) -> int:
        return self.rules.seats.bit_length() - 1

    def entrant(self, player_id: str) -> Entrant | None:
        return next((e for e in self.entrants if e.player_id == player_id), None)

    def in_round(self) -> list[str]:
        """The players of the current round's fights, in bracket order."""
        return [p for f in self.fights for p in f.players]

    def choosing(self) -> bool:
        """Whether the current round still takes decks (its fights have not started)."""
        return bool(self.fights) and all(f.match_id is None for f in self.fights)

    def due_at(self) -> datetime | None:
        """When something is due without a player: the fill, the round's window; None when nothing
        is (ended, or a started fight's end is awaited: the sweep looks at it each pass)."""
        if self.ended:
            return None
        if self.filling:
            return self.fill_at
        if self.choosing():
            everyone = all(p in self.lineups for p in self.in_round())
            return self.opened_at if everyone else self.choose_until
        return self.opened_at  # fights running: look at them each pass


# -- folding --------------------------------------------------------------------------------------


def _at(value: str) -> datetime:
    return datetime.fromisoformat(value)


def evolve(state: Bracket | None, kind: str, data: Mapping[str, Any]) -> Bracket | None:
    if kind == OPENED:
        rules = Rules(int(data["seats"]), int(data["fill_after"]), int(data["choose_seconds"]))
        return Bracket(str(data["tournament_id"]), str(data["game"]), rules, _at(data["opened_at"]))
    if state is None:
        return None
    if kind == ENTERED:
        e = Entrant(data["player_id"], data["entry_id"], tuple(data["cards"]), bool(data.get("bot")))
        return replace(state, entrants=(*state.entrants, e))
    if kind == FILLED:
        return replace(state, order=tuple(data["order"]))
    if kind == ROUND_STARTED:
        fights = tuple(Fight(int(data["round"]), (a, b)) for a, b in data["pairs"])
        history = (*state.history, *state.fights)
        until = _at(data["choose_until"])
        return replace(
            state, round=int(data["round"]), fights=fights, history=history, lineups={}, choose_until=until
        )
    if kind == LINEUP_CHOSEN:
        return replace(state, lineups={**state.lineups, data["player_id"]: tuple(data["cards"])})
    if kind in (FIGHT_STARTED, FIGHT_RECORDED):
        pair = tuple(data["players"])
        fights = tuple(
            replace(f, match_id=data["match_id"], winner=data.get("winner")) if f.players == pair else f
            for f in state.fights
        )
        return replace(state, fights=fights)
    if kind == ELIMINATED:
        return replace(state, places={**state.places, data["player_id"]: int(data["place"])})
    if kind == ENDED:
        places = {**state.places, **{p: int(n) for p, n in data["places"].items()}}
        return replace(state, places=places, ended=True, history=(*state.history, *state.fights), fights=())
    return state  # advanced, awarded: what the others read; the state needs nothing of them


def fold(events: Sequence[Event]) -> Bracket | None:
    state: Bracket | None = None
    for kind, data in events:
        state = evolve(state, kind, data)
    return state


def apply(state: Bracket | None, events: Sequence[Event]) -> Bracket | None:
    for kind, data in events:
        state = evolve(state, kind, data)
    return state


# -- deciding -------------------------------------------------------------------------------------


def open_bracket(tournament_id: str, game: str, rules: Rules, at: datetime) -> list[Event]:
    data = {
        "tournament_id": tournament_id,
        "game": game,
        "seats": rules.seats,
        "fill_after": rules.fill_after,
        "choose_seconds": rules.choose_seconds,
        "opened_at": at.isoformat(),
    }
    return [(OPENED, data)]


def _entered(state: Bracket, e: Entrant) -> Event:
    data = {"tournament_id": state.tournament_id, "player_id": e.player_id, "entry_id": e.entry_id}
    return (ENTERED, {**data, "cards": list(e.cards), "bot": e.bot})


def decide_enter(state: Bracket, entrant: Entrant, seed: int, at: datetime) -> list[Event]:
    """Seat an entrant (nothing for one seated already, or a bracket no longer filling); the last
    seat filled draws the seating and opens round 1."""
    if not state.filling or state.entrant(entrant.player_id) is not None:
        return []
    events = [_entered(state, entrant)]
    if len(state.entrants) + 1 == state.rules.seats:
        events += _fill(apply(state, events), seed, at)  # type: ignore[arg-type]
    return events


def decide_fill(state: Bracket, bots: Sequence[Entrant], seed: int, at: datetime) -> list[Event]:
    """At ``fill_at``: bots in the empty seats (``bots`` holds at least as many), the seating drawn,
    round 1 opened. Nothing before then, or once filled."""
    if not state.filling or at < state.fill_at:
        return []
    empty = state.rules.seats - len(state.entrants)
    events = [_entered(state, b) for b in bots[:empty]]
    return events + _fill(apply(state, events), seed, at)  # type: ignore[arg-type]


def _fill(state: Bracket, seed: int, at: datetime) -> list[Event]:
    order = [e.player_id for e in state.entrants]
    random.Random(seed).shuffle(order)
    filled = (FILLED, {"tournament_id": state.tournament_id, "order": order, "filled_at": at.isoformat()})
    return [filled, _round(state, 1, order, at)]


def _round(state: Bracket, number: int, players: Sequence[str], at: datetime) -> Event:
    pairs = [[players[i], players[i + 1]] for i in range(0, len(players), 2)]
    until = at + timedelta(seconds=state.rules.choose_seconds)
    data = {"tournament_id": state.tournament_id, "round": number, "pairs": pairs}
    return (ROUND_STARTED, {**data, "choose_until": until.isoformat()})


def _chosen(state: Bracket, player: str, cards: Sequence[str], by: str) -> Event:
    data = {"tournament_id": state.tournament_id, "round": state.round, "player_id": player}
    return (LINEUP_CHOSEN, {**data, "cards": list(cards), "chosen_by": by})


def decide_lineup(
    state: Bracket,
    player: str,
    cards: Sequence[str],
    at: datetime,
    problems: Callable[[Sequence[str], Sequence[str]], list[str]],
) -> list[Event]:
    """The player's deck for the current round, chosen from their entry (``problems(cards, entry)``:
    why it is not one; empty: it is). Chosen again before the window closes, the last one counts.
    Raises ``NoRoundOpen``, ``InvalidLineup``."""
    me = state.entrant(player)
    if me is None or not state.choosing() or player not in state.in_round():
        raise NoRoundOpen("you have no round to choose a deck for now", {"round": state.round})
    if state.choose_until is not None and at >= state.choose_until:
        raise NoRoundOpen("this round's window to choose has closed", {"round": state.round})
    found = problems(cards, me.cards)
    if found:
        raise InvalidLineup("; ".join(found), {"problems": found})
    return [_chosen(state, player, cards, "player")]


def decide_defaults(
    state: Bracket, at: datetime, default: Callable[[Sequence[str]], Sequence[str]]
) -> list[Event]:
    """When the window has closed (or everyone has chosen): the default deck of each player of the
    round who has not chosen (bots never choose). Empty when nothing is due."""
    if not state.choosing():
        return []
    missing = [
        e for e in state.entrants if e.player_id in state.in_round() and e.player_id not in state.lineups
    ]
    still_open = state.choose_until is None or at < state.choose_until
    if still_open and any(not e.bot for e in missing):
        return []  # a human may still choose
    return [_chosen(state, e.player_id, default(e.cards), "default") for e in missing]


def fights_to_start(state: Bracket) -> list[tuple[Fight, dict[str, tuple[str, ...]]]]:
    """The round's fights whose decks are all chosen and that have no match yet, with the decks."""
    if not state.fights or any(p not in state.lineups for p in state.in_round()):
        return []
    return [(f, {p: state.lineups[p] for p in f.players}) for f in state.fights if f.match_id is None]


def fight_started(state: Bracket, fight: Fight, match_id: str) -> list[Event]:
    data = {"tournament_id": state.tournament_id, "round": fight.round, "players": list(fight.players)}
    lineups = {p: list(state.lineups[p]) for p in fight.players}
    return [(FIGHT_STARTED, {**data, "match_id": match_id, "lineups": lineups})]


def place_of_loser(state: Bracket, round_number: int) -> int:
    """The place a loser of ``round_number`` takes: in 8 seats 5 (5th-8th), 3 (3rd-4th), 2."""
    return state.rules.seats // (2**round_number) + 1


def decide_result(
    state: Bracket, match_id: str, winner: str | None, at: datetime, prize: Prize
) -> list[Event]:
    """A started fight has ended: recorded, its winner advanced, its loser eliminated with the place and
    (a human) the prize; the round's last result opens the next round or ends the bracket. Nothing
    for a fight not of this round or already recorded."""
    fight = next((f for f in state.fights if f.match_id == match_id and f.winner is None), None)
    if fight is None:
        return []
    won = winner if winner in fight.players else fight.players[0]
    lost = fight.players[1] if won == fight.players[0] else fight.players[0]
    tid, rnd = state.tournament_id, fight.round
    place = place_of_loser(state, rnd)
    events: list[Event] = [
        (
            FIGHT_RECORDED,
            {
                "tournament_id": tid,
                "round": rnd,
                "match_id": match_id,
                "players": list(fight.players),
                "winner": won,
                "loser": lost,
            },
        ),
        (ELIMINATED, {"tournament_id": tid, "round": rnd, "player_id": lost, "place": place}),
        *_award(state, lost, place, prize),
    ]
    after = apply(state, events)
    assert after is not None
    if any(f.winner is None for f in after.fights):
        return [*events, (ADVANCED, {"tournament_id": tid, "round": rnd, "player_id": won})]
    winners = [f.winner for f in after.fights]
    if len(winners) == 1:
        places = {**after.places, won: 1}
        ended = (ENDED, {"tournament_id": tid, "winner": won, "places": places, "ended_at": at.isoformat()})
        return [*events, ended, *_award(state, won, 1, prize)]
    advanced = [(ADVANCED, {"tournament_id": tid, "round": rnd, "player_id": won})]
    return [*events, *advanced, _round(state, rnd + 1, winners, at)]  # type: ignore[arg-type]


def _award(state: Bracket, player: str, place: int, prize: Prize) -> list[Event]:
    e = state.entrant(player)
    paid = prize(place)
    if e is None or e.bot or paid is None:
        return []
    currency, amount = paid
    data = {"tournament_id": state.tournament_id, "game": state.game, "player_id": player}
    more = {"entry_id": e.entry_id, "place": place, "currency": currency, "amount": amount}
    return [(PLACE_AWARDED, {**data, **more})]
