"""The matchmaking service: open, show and cancel tickets; the pairing pass; what it consumes.

Every ticket change is an event of ``ticket-<id>`` appended at the version it was decided on, with
the ``tickets`` projection updated in the same transaction (the one command path,
``libs.eventstore.Repository``). The pairing pass runs under a
transaction-scoped advisory lock (a second worker finds it taken and skips the pass), and every
write is an append at the ticket version read: even without the lock a ticket can be paired only
once. What a pass writes is planned in ``plan.py``; all of it goes in one pipelined savepoint.
The published ``MatchRequested`` is an event of ``request-<id>``: the outbox relay sends it to
``arcana.matchmaking.events``.
"""

from __future__ import annotations

import functools
import logging
import uuid
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg_pool import ConnectionPool

from libs import clock, fairplay
from libs.contracts import (
    ActiveDeckChanged,
    MatchCreated,
    MatchEnded,
    MatchRequestRejected,
    RatingChanged,
)
from libs.eventstore import (
    ConcurrencyError,
    EventStore,
    EventTypes,
    Fold,
    RecordedEvent,
    Repository,
    Transaction,
    UnitOfWork,
)
from libs.games import registry
from libs.games.offer import NO_DECK as NO_DECK_NEEDED
from libs.games.offer import STARTER_DECK, Offer
from services.matchmaking import domain, events, projections, store
from services.matchmaking.plan import PassResult, Write, plan_pass
from services.matchmaking.upcasting import UPCASTERS

log = logging.getLogger(__name__)


def _offer(game: str) -> Offer:
    """What ``game`` offers; raises ``UnknownGame``."""
    try:
        return registry.offer(game)
    except registry.UnknownGame:
        raise domain.UnknownGame(f"game must be one of {', '.join(domain.queued_games())}") from None


STARTER = domain.ActiveDeck("starter")  # every new account's active deck until economy says more
NO_DECK = domain.ActiveDeck(None)  # a game without decks: its players share the game's own
ACTIVE_DECK_CHANGED, RATING_CHANGED = ActiveDeckChanged.TYPE, RatingChanged.TYPE
MATCH_CREATED, MATCH_REQUEST_REJECTED = MatchCreated.TYPE, MatchRequestRejected.TYPE
MATCH_ENDED = MatchEnded.TYPE
Conn = psycopg.Connection[Any]


class TicketNotFound(Exception):
    """No such ticket, or it is another player's."""


class MatchInProgress(Exception):
    """The player has an unfinished ranked or casual match (``match_id``): one match at a time."""

    def __init__(self, match_id: str) -> None:
        super().__init__("you have a match in progress")
        self.match_id = match_id


class TicketAlreadyOpen(Exception):
    """The player already has a waiting or paired ticket (``ticket_id``)."""

    def __init__(self, ticket_id: str | None) -> None:
        super().__init__("you already have an open ticket")
        self.ticket_id = ticket_id


# A ticket stream folded (``Repository.get``): its events as the catalog declares them.
TICKETS: Fold[domain.Ticket | None] = Fold(
    lambda: None, EventTypes(events.CATALOG.events).evolving(domain.evolve)
)


def _problems(raw: Any) -> list[str]:
    if isinstance(raw, Mapping):
        return [f"{k}: {v}" for k, v in raw.items()]
    if isinstance(raw, list | tuple):
        return [str(p) for p in raw]
    return [str(raw)] if raw else []


def _refused(event: RecordedEvent) -> Callable[[domain.Ticket], list[domain.TicketEvent]]:
    """What a MatchRequestRejected does to each ticket of its request: fails it, or, for a reason
    that passes (``domain.RETURNED_REASONS``: match has not heard of a player yet), returns it to
    waiting; the player match did not know waits a while first (``domain.returned``)."""
    rejected = MatchRequestRejected.decode(event)
    reason, now = rejected.reason or "rejected", clock.now()
    if reason in domain.RETURNED_REASONS:
        named = set(rejected.problems) if isinstance(rejected.problems, Mapping) else set()

        def give_back(t: domain.Ticket) -> list[domain.TicketEvent]:
            unknown = t.player_id in named or not named
            return domain.returned(t, rejected.match_id, reason, rejected.message, unknown, now)

        return give_back
    problems = _problems(rejected.problems)
    return lambda t: domain.failed(t, rejected.match_id, reason, rejected.message, problems)


class MatchmakingService:
    def __init__(self, pool: ConnectionPool, schema: str) -> None:
        self.pool = pool
        self.schema = schema
        self.events = EventStore(pool, schema, UPCASTERS)
        self.repository = Repository(self.events, project=self._project, declared=events.CATALOG.events)
        self._lock_key = f"{schema}.pairing"

    # -- tickets -------------------------------------------------------------------------------

    def _project(self, conn: Conn, recorded: Sequence[RecordedEvent]) -> None:
        for r in recorded:
            projections.apply(conn, self.schema, r)

    def load(self, ticket_id: str, conn: Conn | UnitOfWork) -> domain.Ticket | None:
        return self.repository.get(conn, domain.ticket_stream(ticket_id), TICKETS).state

    def join(
        self,
        player_id: str,
        mode: str,
        transaction: Transaction | None = None,
        *,
        game: str = domain.DEFAULT_GAME,
        sizes: Sequence[int] | None = None,
    ) -> domain.Ticket:
        """Open a ticket for ``game`` (a game seated by table sizes: of the table ``sizes``, default
        all) with the player's active deck of that game (as its offer says: the starter deck until
        economy published one, none until one is built, or no deck) and current rating on its
        ladder (0 without one). Raises
        ``UnknownGame``, ``InvalidMode``, ``InvalidSizes``, ``RankedLocked``, ``NoActiveDeck``,
        ``IllegalDeck`` (with the problems), ``MatchInProgress`` or ``TicketAlreadyOpen``; nothing
        is written then. ``transaction`` (default: one of its own) is where the writes go, e.g.
        the request's idempotency transaction."""
        now, ticket_id = clock.now(), str(uuid.uuid4())

        def open_one(uow: UnitOfWork) -> domain.TicketEvent:
            running = store.match_in_progress(uow.conn, self.schema, player_id)
            if running is not None:
                raise MatchInProgress(running)
            event = domain.open_ticket(
                ticket_id,
                player_id,
                mode,
                self._rating(uow.conn, player_id, game),
                self._deck(uow.conn, player_id, game),
                now,
                game=game,
                sizes=sizes,
                training_battles=self._training_battles(uow.conn, player_id, game),
            )
            try:
                with uow.conn.transaction():  # a savepoint: the refusal is answered on this connection
                    uow.append(domain.ticket_stream(ticket_id), 0, [event], occurred_at=now)
            except pg_errors.UniqueViolation:
                raise TicketAlreadyOpen(store.open_ticket_of(uow.conn, self.schema, player_id)) from None
            store.touch(uow.conn, self.schema, ticket_id, now)
            return event

        opened = self.repository.execute(open_one, transaction=transaction)
        return domain.evolve(None, opened)

    def _rating(self, conn: Conn, player_id: str, game: str) -> int:
        """What a ticket of ``game`` is paired by: the player's rating on its ladder (the ladder's
        start before any), 0 for a game without a ladder."""
        ladder = _offer(game).ladder
        if ladder is None:
            return 0
        known = store.rating_of(conn, self.schema, player_id, game)
        return ladder.start if known is None else known

    def _training_battles(self, conn: Conn, player_id: str, game: str) -> int:
        if not _offer(game).queue.trains:
            return 0
        return store.training_battles(conn, self.schema, player_id, game)

    def _deck(self, conn: Conn, player_id: str, game: str) -> domain.ActiveDeck | None:
        """The player's active deck of ``game`` as economy published it; else the game's starter
        deck (when its offer says so), no deck (a game without decks), or None (none built yet)."""
        kind = _offer(game).queue.deck
        if kind == NO_DECK_NEEDED:
            return NO_DECK
        published = store.active_deck(conn, self.schema, player_id, game)
        return published or (STARTER if kind == STARTER_DECK else None)

    def _owned(self, player_id: str, ticket_id: str, conn: psycopg.Connection[Any]) -> domain.Ticket:
        try:
            ticket_id = str(uuid.UUID(ticket_id))
        except ValueError:
            raise TicketNotFound(ticket_id) from None
        t = self.load(ticket_id, conn)
        if t is None or t.player_id != player_id:
            raise TicketNotFound(ticket_id)
        return t

    def look(self, player_id: str, ticket_id: str) -> domain.Ticket:
        """The player's ticket; a waiting one counts as polled now. Raises ``TicketNotFound``."""
        with self.pool.connection() as conn, conn.transaction():
            t = self._owned(player_id, ticket_id, conn)
            if t.status == domain.WAITING:
                store.touch(conn, self.schema, t.ticket_id, clock.now())
        return t

    def view(self, player_id: str, ticket_id: str) -> dict[str, Any]:
        """``look``, described now; a waiting ticket of a game seated by table sizes also shows how
        many wait for each table size it accepts."""
        t = self.look(player_id, ticket_id)
        waiting = None
        if domain.by_tables(t.game) and t.status == domain.WAITING:
            with self.pool.connection() as conn:
                waiting = store.sizes_waiting(conn, self.schema, t.game)
        return self.describe(t, clock.now(), waiting)

    def cancel(self, player_id: str, ticket_id: str, transaction: Transaction | None = None) -> domain.Ticket:
        """Cancel the player's waiting ticket. Raises ``TicketNotFound`` or ``TicketNotWaiting``
        (a ticket being paired right now: a conflict is retried from a fresh read, which finds it
        paired)."""
        now = clock.now()

        def cancel_one(uow: UnitOfWork) -> domain.Ticket:
            t = self._owned(player_id, ticket_id, uow.conn)
            event = domain.cancel(t, "player", now)
            try:
                with uow.conn.transaction():  # a savepoint: the refusal is answered on this connection
                    uow.append(domain.ticket_stream(t.ticket_id), t.version, [event], occurred_at=now)
            except ConcurrencyError:
                raise domain.TicketNotWaiting(self._owned(player_id, ticket_id, uow.conn).status) from None
            return domain.evolve(t, event)

        return self.repository.execute(cancel_one, transaction=transaction)

    def purge_closed(self, before: datetime) -> int:
        """Drop closed tickets last active before ``before`` from the read models (the purge
        policy's task calls it); ``look`` still answers them from their events."""
        with self.pool.connection() as conn, conn.transaction():
            return store.purge_closed(conn, self.schema, before)

    # -- the pairing pass ----------------------------------------------------------------------

    def pair(self) -> PassResult:
        """One pass: cancel waiting tickets not polled for 30 s (nor since the pairing came back
        from an outage: ``domain.resumed_at``), fail paired tickets the match
        service never answered (so their players can queue again), then pair and request matches
        (``plan.plan_pass``). Returns what it did; ``ran`` is False when another worker is in its
        pass."""
        now = clock.now()
        with self.pool.connection() as conn, conn.transaction():
            locked = conn.execute(
                "SELECT pg_try_advisory_xact_lock(hashtext(%s))", (self._lock_key,)
            ).fetchone()
            if not locked or not locked[0]:
                return PassResult(ran=False)
            last_pass, resumed = store.pairing_run(conn, self.schema, self._lock_key)
            resumed = domain.resumed_at(last_pass, resumed, now)
            store.save_pairing_run(conn, self.schema, self._lock_key, now, resumed)
            waiting = store.waiting(conn, self.schema)
            stale = store.unanswered(conn, self.schema, now - timedelta(seconds=domain.ANSWER_SECONDS))
            planned = plan_pass(waiting, stale, now, resumed)
            done = self._write_steps(conn, [step.writes for step in planned], now)
        return PassResult.of(planned[i].kind for i in done)

    def _write_steps(self, conn: Conn, steps: Sequence[Sequence[Write]], now: datetime) -> list[int]:
        """Write every step of the pass; the indices of the steps written (a step whose ticket
        changed meanwhile, e.g. a player cancelled, is left out: ``Repository.execute_planned``)."""
        commands = [functools.partial(self._queue, step=step, now=now) for step in steps]
        return self.repository.execute_planned(conn, commands)

    @staticmethod
    def _queue(uow: UnitOfWork, step: Sequence[Write], now: datetime) -> None:
        """Queue the appends of one step and their projection updates (in the pass's pipeline)."""
        for stream, expected, decided in step:
            uow.append(stream, expected, decided, occurred_at=now, pipelined=True)

    # -- consuming -----------------------------------------------------------------------------

    def handle(self, event: RecordedEvent, conn: Conn) -> None:
        """Apply one event of another service (in the consumer's transaction), decoded first
        (``libs.contracts``: one that does not decode is a dead letter)."""
        if event.type == ACTIVE_DECK_CHANGED:
            active = ActiveDeckChanged.decode(event)
            deck = {
                "game": active.game,
                "deck_id": active.deck_id,
                "legal": active.legal,
                "problems": list(active.problems),
            }
            store.save_active_deck(conn, self.schema, active.player_id, deck, event.position, event.version)
        elif event.type == RATING_CHANGED:
            changed = RatingChanged.decode(event)  # each game's ladder apart, paired by the hidden rating
            store.save_rating(
                conn, self.schema, changed.player_id, changed.game, changed.hidden_after, event.version
            )
        elif event.type == MATCH_ENDED:
            ended = MatchEnded.decode(event)
            store.match_over(conn, self.schema, ended.match_id)
            trained = self._trained(ended)
            if trained:
                store.training_finished(conn, self.schema, ended.game, ended.match_id, trained)
        elif event.type == MATCH_CREATED:
            created = MatchCreated.decode(event)
            if created.mode in fairplay.COUNTING_MODES:
                store.match_started(conn, self.schema, created.match_id, list(created.players))
            if created.request_id is not None:  # else a practice or operator match
                self._settle(created.request_id, lambda t: domain.matched(t, created.match_id), event, conn)
        elif event.type == MATCH_REQUEST_REJECTED:
            self._settle(MatchRequestRejected.decode(event).request_id, _refused(event), event, conn)

    @staticmethod
    def _trained(ended: MatchEnded) -> list[str]:
        """The human players for whom ``ended`` was a training battle: a finished practice match,
        won or lost, of a game whose ranked queue opens after training battles."""
        try:
            trains = registry.offer(ended.game).queue.trains
        except registry.UnknownGame:
            return []
        return ended.practice_humans() if trains else []

    def _settle(
        self,
        request_id: str,
        decide: Callable[[domain.Ticket], list[domain.TicketEvent]],
        event: RecordedEvent,
        conn: Conn,
    ) -> None:
        """The tickets of a request become matched (MatchCreated) or failed (MatchRequestRejected)."""
        now = clock.now()

        def settle(uow: UnitOfWork) -> None:
            for ticket_id in store.tickets_of_request(uow.conn, self.schema, request_id):
                t = self.load(ticket_id, uow)
                decided = decide(t) if t is not None else []
                if t is not None and decided:
                    stream = domain.ticket_stream(ticket_id)
                    uow.append(stream, t.version, decided, occurred_at=now)

        self.repository.execute(settle, conn=conn)

    # -- views ---------------------------------------------------------------------------------

    @staticmethod
    def describe(
        t: domain.Ticket, now: datetime, sizes_waiting: Mapping[int, int] | None = None
    ) -> dict[str, Any]:
        """A ticket as its player sees it: game, table sizes, status, seconds waited, the current
        rating window (ranked and waiting; None = unlimited), the match id once matched, why it
        failed; a ticket of a game seated by table sizes: how many wait per size it accepts
        (``sizes_waiting``, while it waits), its table's size once seated."""
        view: dict[str, Any] = {
            "ticket_id": t.ticket_id,
            "game": t.game,
            "mode": t.mode,
            "sizes": list(t.sizes),
            "status": t.status,
            "waited_seconds": round(t.waited(now), 1),
            "rating": t.rating,
        }
        if t.status == domain.WAITING and t.mode == "ranked":
            w = domain.window(t.waited(now))
            view["window"] = None if w == float("inf") else int(w)
        by_tables = domain.by_tables(t.game)
        if by_tables and t.status == domain.WAITING and sizes_waiting is not None:
            view["waiting"] = {str(size): sizes_waiting.get(size, 0) for size in t.sizes}
        if by_tables and t.opponents:
            view["table_size"] = 1 + len(t.opponents)
        if t.status == domain.MATCHED:
            view["match_id"] = t.match_id
        if t.status in (domain.FAILED, domain.CANCELLED):
            view["reason"] = t.reason
        if t.status == domain.FAILED:
            view["message"], view["problems"] = t.message, list(t.problems)
        return view
