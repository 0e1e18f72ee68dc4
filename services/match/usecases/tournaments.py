"""Tournaments (docs/line.md, "Tournament"): the brackets of the games whose offer has a ``Tournament``,
kept by the match service because each fight is a match of the game, created in the same transaction
as the bracket's step (``MatchCreation.create_match``: the normal game, the normal match stream).

- an entry (economy's ``TournamentEntryMade``, consumed once) takes a seat of the game's filling
  bracket, or opens one;
- a player chooses a deck of their entry for the current round (``choose``);
- the sweep (Celery beat, with the match sweep) steps every bracket due: bots into the empty seats at
  the fill time, default decks when a round's window closes, a match per fight, each ended match's
  result, the places and the prizes (``TournamentPlaceAwarded``, paid by the economy).

Every step is appended to the stream ``tournament-<id>`` with the row of ``tournaments`` written in the
same transaction, so a restart at any moment loses nothing: the state is the fold of the stream, and
the next sweep does what is due. The bracket's rules are ``domain/bracket.py`` (pure).
"""

from __future__ import annotations

import logging
import random
import secrets
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from typing import Any

import psycopg

from libs import clock
from libs.contracts.tournament import TournamentEntryMadeInFull
from libs.eventstore import NewEvent, RecordedEvent
from libs.games import registry
from libs.games.offer import Tournament
from services.match import domain, tournament_store
from services.match.domain import bracket as b
from services.match.errors import MatchExists
from services.match.repository import MatchRepository, Outcome
from services.match.scheduling import Dispatcher
from services.match.usecases.creation import MatchCreation

log = logging.getLogger(__name__)

Conn = psycopg.Connection[Any]
Transaction = Callable[..., AbstractContextManager[Conn]]
MODE = "tournament"  # the mode of a bracket's matches: they pay and move nothing; the places pay
_FIGHTS = uuid.UUID("6b1f0c55-54a4-4a1c-9d43-5d1bb0b2a8a7")  # a fight's match id: uuid5(this, ...)
SWEEP_BATCH = 20


class TournamentNotFound(Exception):
    """No such bracket among the caller's (the API answers 404)."""


def stream_of(tournament_id: str) -> str:
    return f"tournament-{tournament_id}"


def offer_of(game: str) -> Tournament:
    found = registry.offer(game).tournament
    if found is None:
        raise LookupError(f"{game} offers no tournament")
    return found


def lineup_problems(game: str, cards: Sequence[str], entry: Sequence[str]) -> list[str]:
    """Why ``cards`` is not a deck of the game chosen from ``entry`` (empty: it is one)."""
    outside = [f"{c} is not in your entry" for c in dict.fromkeys(cards) if c not in entry]
    collection = registry.offer(game).collection
    if outside or collection is None:
        return outside
    return list(collection.cards.deck_problems(cards, dict.fromkeys(entry, 1)))


def _prize(game: str) -> b.Prize:
    table = offer_of(game)

    def prize(place: int) -> tuple[str, int] | None:
        found = table.prize(place)
        return (found.currency, found.amount) if found else None

    return prize


def fight_match_id(tournament_id: str, fight: b.Fight) -> str:
    """One match per fight, whatever retries: derived from the bracket, round and pair."""
    return str(uuid.uuid5(_FIGHTS, f"{tournament_id}:{fight.round}:{':'.join(fight.players)}"))


class Tournaments:
    def __init__(self, matches: MatchRepository, creation: MatchCreation, dispatcher: Dispatcher) -> None:
        self.matches = matches
        self.schema = matches.schema
        self.creation = creation
        self.dispatcher = dispatcher

    @contextmanager
    def own_transaction(self) -> Iterator[Conn]:
        """A pooled connection in a transaction, committed at the end (the sweep's)."""
        with self.matches.pool.connection() as conn, conn.transaction():
            yield conn

    # -- the stream ---------------------------------------------------------------------------------

    def _load(self, conn: Conn, tournament_id: str) -> tuple[b.Bracket | None, list[RecordedEvent]]:
        recorded = self.matches.events.read(stream_of(tournament_id), conn=conn)
        return b.fold([(r.type, r.data) for r in recorded]), recorded

    def _append(
        self, conn: Conn, state: b.Bracket | None, version: int, events: list[b.Event], tid: str
    ) -> b.Bracket:
        """Append ``events`` at ``version`` and write the bracket's row; returns the state after."""
        after = b.apply(state, events)
        assert after is not None
        if events:
            now = clock.now()
            new = [NewEvent(kind, data, occurred_at=now) for kind, data in events]
            self.matches.events.append(stream_of(tid), version, new, conn=conn)
            tournament_store.save(conn, self.schema, after)
        return after

    # -- entries (the consumer of economy's TournamentEntryMade) -----------------------------------

    def enter(self, event: RecordedEvent, conn: Conn) -> str | None:
        """Seat an entry in its game's filling bracket (opened by it when there is none); returns the
        bracket's id (None for a game that offers no tournament)."""
        entry = TournamentEntryMadeInFull.decode(event)
        try:
            table = offer_of(entry.game)
        except LookupError:
            log.warning("entry %s of %s: the game offers no tournament", entry.entry_id, entry.game)
            return None
        now = clock.now()
        seated = b.Entrant(entry.player_id, entry.entry_id, tuple(entry.cards))
        tid = tournament_store.filling(conn, self.schema, entry.game)
        if tid is None:
            tid = str(uuid.uuid4())
            rules = b.Rules(table.seats, table.fill_after, table.choose_seconds)
            opened = b.open_bracket(tid, entry.game, rules, now)
            state = b.apply(None, opened)
            assert state is not None
            self._append(
                conn, None, 0, opened + b.decide_enter(state, seated, secrets.randbits(63), now), tid
            )
            return tid
        state, recorded = self._load(conn, tid)
        assert state is not None
        self._append(
            conn, state, len(recorded), b.decide_enter(state, seated, secrets.randbits(63), now), tid
        )
        return tid

    # -- a player's deck for the round ----------------------------------------------------------

    def choose(
        self, player: str, tournament_id: str, cards: Sequence[str], *, transaction: Transaction
    ) -> dict[str, Any]:
        """The player's deck for the current round (the sweep starts the fights once everyone has
        chosen). Raises ``TournamentNotFound``, ``bracket.NoRoundOpen``, ``bracket.InvalidLineup``."""
        with transaction() as conn:
            if not tournament_store.lock(conn, self.schema, tournament_id):
                raise TournamentNotFound(tournament_id)
            state, recorded = self._load(conn, tournament_id)
            if state is None or state.entrant(player) is None:
                raise TournamentNotFound(tournament_id)
            problems = lambda cards, entry: lineup_problems(state.game, cards, entry)  # noqa: E731
            events = b.decide_lineup(state, player, cards, clock.now(), problems)
            self._append(conn, state, len(recorded), events, tournament_id)
            _, recorded = self._load(conn, tournament_id)
        return view(recorded, player)

    # -- reads ---------------------------------------------------------------------------------

    def bracket(self, player: str, tournament_id: str) -> dict[str, Any]:
        """The bracket as an entrant sees it. Raises ``TournamentNotFound`` (also for a non-entrant)."""
        with self.matches.reading() as conn:
            state, recorded = self._load(conn, tournament_id)
        if state is None or state.entrant(player) is None:
            raise TournamentNotFound(tournament_id)
        return view(recorded, player)

    def mine(self, player: str) -> list[dict[str, Any]]:
        with self.matches.reading() as conn:
            return tournament_store.of_player(conn, self.schema, player)

    # -- the sweep ------------------------------------------------------------------------------

    def sweep(self, *, transaction: Transaction) -> int:
        """Step every bracket due now (each in a transaction of its own, its row locked; one another
        sweep holds is passed over). Returns the events appended."""
        now = clock.now()
        with self.matches.reading() as conn:
            due = tournament_store.due(conn, self.schema, now, SWEEP_BATCH)
        appended = 0
        for tid in due:
            created: list[Outcome] = []
            with transaction() as conn:
                if tournament_store.lock(conn, self.schema, tid, skip_locked=True):
                    appended += self.step(conn, tid, now, created)
            for outcome in created:
                self.dispatcher.dispatch(outcome)
        return appended

    def step(self, conn: Conn, tid: str, now: datetime, created: list[Outcome]) -> int:
        """Everything due in one bracket at ``now``, until nothing more is; returns the events appended."""
        total = 0
        while True:
            state, recorded = self._load(conn, tid)
            if state is None or state.ended:
                return total
            events = self._next(conn, state, now, created)
            if not events:
                return total
            self._append(conn, state, len(recorded), events, tid)
            total += len(events)

    def _next(self, conn: Conn, state: b.Bracket, now: datetime, created: list[Outcome]) -> list[b.Event]:
        table = offer_of(state.game)
        if state.filling:
            rng = random.Random(secrets.randbits(63))
            bots = [
                b.Entrant(f"bot-{uuid.uuid4()}", str(uuid.uuid4()), tuple(table.bot_entry(rng)), bot=True)
                for _ in range(state.rules.seats)
            ]
            return b.decide_fill(state, bots, secrets.randbits(63), now)
        defaults = b.decide_defaults(state, now, table.lineup)
        if defaults:
            return defaults
        for fight, lineups in b.fights_to_start(state):
            match_id = self._start(conn, state, fight, lineups, created)
            return b.fight_started(state, fight, match_id)
        for fight in state.fights:
            if fight.match_id is not None and fight.winner is None:
                events = self._result(conn, state, fight.match_id, now)
                if events:
                    return events
        return []

    def _start(
        self,
        conn: Conn,
        state: b.Bracket,
        fight: b.Fight,
        lineups: dict[str, tuple[str, ...]],
        created: list[Outcome],
    ) -> str:
        """The fight's match: the normal game between the pair with their decks (bots seated as bots)."""
        match_id = fight_match_id(state.tournament_id, fight)
        bots = [p for p in fight.players if (e := state.entrant(p)) is not None and e.bot]
        players = [{"id": p, "deck": list(lineups[p])} for p in fight.players]
        try:
            with conn.transaction():  # a savepoint: a match that exists leaves the step's transaction usable
                outcome = self.creation.create_match(
                    MODE,
                    players,
                    match_id=match_id,
                    conn=conn,
                    game=state.game,
                    bots=bots,
                    bot=bots[0] if bots else None,
                )
        except MatchExists:
            return match_id  # never two matches for one fight
        created.append(outcome)
        return match_id

    def _result(self, conn: Conn, state: b.Bracket, match_id: str, now: datetime) -> list[b.Event]:
        m = self.matches.load(match_id, conn)
        if m is None or not m.ended or m.rules is None:
            return []
        result = domain.game_of(m).result(m.rules)
        winner = None if result is None or result.draw else result.winner
        return b.decide_result(state, match_id, winner, now, _prize(state.game))


# -- the view ------------------------------------------------------------------------------------


def view(recorded: Sequence[RecordedEvent], viewer: str) -> dict[str, Any]:
    """The bracket as ``viewer`` (an entrant) sees it: the seats, the rounds with their fights (each
    deck once its fight has started), the places; their own entry and the deck they chose for the
    round. Nobody else's entry, and no deck chosen for a fight not started."""
    state = b.fold([(r.type, r.data) for r in recorded])
    assert state is not None
    rounds: dict[int, dict[str, Any]] = {}
    for r in recorded:
        d = r.data
        if r.type == b.ROUND_STARTED:
            fights = [
                {"players": list(p), "match_id": None, "winner": None, "lineups": None} for p in d["pairs"]
            ]
            rounds[d["round"]] = {"round": d["round"], "choose_until": d["choose_until"], "fights": fights}
        elif r.type in (b.FIGHT_STARTED, b.FIGHT_RECORDED):
            for f in rounds[d["round"]]["fights"]:
                if f["players"] == d["players"]:
                    f["match_id"] = d["match_id"]
                    f["winner"] = d.get("winner", f["winner"])
                    f["lineups"] = d.get("lineups", f["lineups"])
    me = state.entrant(viewer)
    assert me is not None
    status = "ended" if state.ended else "filling" if state.filling else "running"
    return {
        "tournament_id": state.tournament_id,
        "game": state.game,
        "status": status,
        "seats": state.rules.seats,
        "opened_at": state.opened_at.isoformat(),
        "fill_at": state.fill_at.isoformat(),
        "round": state.round,
        "entrants": [
            {"player_id": e.player_id, "bot": e.bot, "place": state.places.get(e.player_id)}
            for e in state.entrants
        ],
        "order": list(state.order),
        "rounds": [rounds[n] for n in sorted(rounds)],
        "you": {
            "entry_id": me.entry_id,
            "entry": list(me.cards),
            "lineup": list(state.lineups[viewer]) if viewer in state.lineups and state.choosing() else None,
            "choosing": state.choosing() and viewer in state.in_round(),
            "place": state.places.get(viewer),
        },
    }
