"""The matchmaking service: open, show and cancel tickets; the pairing pass; what it consumes.

Every ticket change is an event of ``ticket-<id>`` appended at the version it was decided on, with
the ``tickets`` projection updated in the same transaction. The pairing pass runs under a
transaction-scoped advisory lock (a second worker finds it taken and skips the pass), and every
write is an append at the ticket version read: even without the lock a ticket can be paired only
once. What a pass writes is planned in ``plan.py``; all of it goes in one pipelined savepoint.
The published ``MatchRequested`` is an event of ``request-<id>``: the outbox relay sends it to
``arcana.matchmaking.events``.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime, timedelta
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg_pool import ConnectionPool

from libs import clock
from libs.eventstore import ConcurrencyError, EventStore, NewEvent, RecordedEvent, stream_moved
from libs.kit.events import IntegrationEvent
from libs.rules import STARTER_DECK
from services.matchmaking import domain, events, projections, store
from services.matchmaking.plan import PassResult, Write, plan_pass

log = logging.getLogger(__name__)

START_RATING = 900  # the ratings service's start: a player it has not rated yet
STARTER = domain.ActiveDeck(tuple(STARTER_DECK))
ACTIVE_DECK_CHANGED, RATING_CHANGED = "ActiveDeckChanged", "RatingChanged"
MATCH_CREATED, MATCH_REQUEST_REJECTED = "MatchCreated", "MatchRequestRejected"


UnitOfWork = Callable[[], AbstractContextManager[psycopg.Connection[Any]]]


class TicketNotFound(Exception):
    """No such ticket, or it is another player's."""


class TicketAlreadyOpen(Exception):
    """The player already has a waiting or paired ticket (``ticket_id``)."""

    def __init__(self, ticket_id: str | None) -> None:
        super().__init__("you already have an open ticket")
        self.ticket_id = ticket_id


def _declared(kind: str, data: dict[str, Any]) -> IntegrationEvent:
    """The domain's event as its declared, published type (KeyError for an undeclared one)."""
    return events.CATALOG.event(kind).from_data(data)


def _problems(raw: Any) -> list[str]:
    if isinstance(raw, Mapping):
        return [f"{k}: {v}" for k, v in raw.items()]
    if isinstance(raw, list | tuple):
        return [str(p) for p in raw]
    return [str(raw)] if raw else []


class MatchmakingService:
    def __init__(self, pool: ConnectionPool, schema: str) -> None:
        self.pool = pool
        self.schema = schema
        self.events = EventStore(pool, schema)
        self._lock_key = f"{schema}.pairing"

    # -- tickets -------------------------------------------------------------------------------

    @contextmanager
    def _own_transaction(self) -> Iterator[psycopg.Connection[Any]]:
        with self.pool.connection() as conn, conn.transaction():
            yield conn

    def load(self, ticket_id: str, conn: psycopg.Connection[Any]) -> domain.Ticket | None:
        recorded = self.events.read(domain.ticket_stream(ticket_id), conn=conn)
        return domain.fold((e.type, e.data) for e in recorded)

    def _append(
        self,
        conn: psycopg.Connection[Any],
        stream: str,
        expected: int,
        decided: Sequence[domain.Event],
        now: datetime,
        cause: uuid.UUID | None = None,
    ) -> None:
        new = [NewEvent.of(_declared(k, d), occurred_at=now, causation_id=cause) for k, d in decided]
        for recorded in self.events.append(stream, expected, new, conn=conn, savepoint=False):
            projections.apply(conn, self.schema, recorded)

    def join(self, player_id: str, mode: str, transaction: UnitOfWork | None = None) -> domain.Ticket:
        """Open a ticket with the player's active deck (the starter deck until economy published
        one) and current rating. Raises ``InvalidMode``, ``IllegalDeck`` (with the problems) or
        ``TicketAlreadyOpen``; nothing is written then. ``transaction`` (default: one of its own)
        is where the writes go, e.g. the request's idempotency transaction."""
        now, ticket_id = clock.now(), str(uuid.uuid4())
        with (transaction or self._own_transaction)() as conn:
            deck = store.active_deck(conn, self.schema, player_id) or STARTER
            known = store.rating_of(conn, self.schema, player_id)
            rating = START_RATING if known is None else known
            event = domain.open_ticket(ticket_id, player_id, mode, rating, deck, now)
            try:
                with conn.transaction():  # a savepoint: the refusal is answered on this connection
                    self._append(conn, domain.ticket_stream(ticket_id), 0, [event], now)
            except pg_errors.UniqueViolation:
                raise TicketAlreadyOpen(store.open_ticket_of(conn, self.schema, player_id)) from None
            store.touch(conn, self.schema, ticket_id, now)
        return domain.evolve(None, *event)

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

    def cancel(self, player_id: str, ticket_id: str, transaction: UnitOfWork | None = None) -> domain.Ticket:
        """Cancel the player's waiting ticket. Raises ``TicketNotFound`` or ``TicketNotWaiting``
        (a ticket being paired right now: ``ConcurrencyError`` is reported as not waiting)."""
        now = clock.now()
        with (transaction or self._own_transaction)() as conn:
            t = self._owned(player_id, ticket_id, conn)
            event = domain.cancel(t, "player", now)
            try:
                with conn.transaction():  # a savepoint: the refusal is answered on this connection
                    self._append(conn, domain.ticket_stream(t.ticket_id), t.version, [event], now)
            except ConcurrencyError:
                raise domain.TicketNotWaiting(self._owned(player_id, ticket_id, conn).status) from None
        return domain.evolve(t, *event)

    def purge_closed(self, before: datetime) -> int:
        """Drop closed tickets last active before ``before`` from the read models (the purge
        policy's task calls it); ``look`` still answers them from their events."""
        with self.pool.connection() as conn, conn.transaction():
            return store.purge_closed(conn, self.schema, before)

    # -- the pairing pass ----------------------------------------------------------------------

    def pair(self) -> PassResult:
        """One pass: cancel waiting tickets not polled for 30 s, fail paired tickets the match
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
            waiting = store.waiting(conn, self.schema)
            stale = store.unanswered(conn, self.schema, now - timedelta(seconds=domain.ANSWER_SECONDS))
            planned = plan_pass(waiting, stale, now)
            done = self._write_steps(conn, [step.writes for step in planned], now)
        return PassResult.of(planned[i].kind for i in done)

    def _write_steps(
        self, conn: psycopg.Connection[Any], steps: Sequence[Sequence[Write]], now: datetime
    ) -> list[int]:
        """Write every step of the pass; the indices of the steps written. All steps go in one
        savepoint, pipelined (one round trip); if a ticket changed meanwhile (a player cancelled:
        an append refused), they go again one savepoint each, and the steps that lost are left out."""
        with conn.pipeline():
            try:
                with conn.transaction():
                    for step in steps:
                        self._queue(conn, step, now)
                return list(range(len(steps)))
            except psycopg.Error as exc:
                if not stream_moved(exc):
                    raise
            done = []
            for i, step in enumerate(steps):
                try:
                    with conn.transaction():
                        self._queue(conn, step, now)
                    done.append(i)
                except psycopg.Error as exc:
                    if not stream_moved(exc):
                        raise
                    log.info("pairing step skipped (the ticket changed meanwhile): %s", exc)
            return done

    def _queue(self, conn: psycopg.Connection[Any], writes: Sequence[Write], now: datetime) -> None:
        """Queue the appends of one step and their projection updates (conn in pipeline mode)."""
        for stream, expected, decided in writes:
            new = [NewEvent.of(_declared(k, d), occurred_at=now) for k, d in decided]
            for predicted in self.events.append_queued(conn, stream, expected, new).predicted():
                projections.apply(conn, self.schema, predicted)

    # -- consuming -----------------------------------------------------------------------------

    def handle(self, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
        """Apply one event of another service (in the consumer's transaction)."""
        d = event.data
        if event.type == ACTIVE_DECK_CHANGED and d.get("player_id"):
            deck = {
                "deck_id": d.get("deck_id"),
                "cards": [str(c) for c in d.get("cards") or ()],
                "legal": bool(d.get("legal")),
                "problems": _problems(d.get("problems")),
            }
            store.save_active_deck(conn, self.schema, str(d["player_id"]), deck, event.position)
        elif event.type == RATING_CHANGED and d.get("player_id"):
            store.save_rating(conn, self.schema, str(d["player_id"]), int(d["after"]), event.version)
        elif event.type in (MATCH_CREATED, MATCH_REQUEST_REJECTED) and d.get("request_id"):
            self._settle(event, conn)

    def _settle(self, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
        """The tickets of a request become matched (MatchCreated) or failed (MatchRequestRejected)."""
        d, now = event.data, clock.now()
        for ticket_id in store.tickets_of_request(conn, self.schema, str(d["request_id"])):
            t = self.load(ticket_id, conn)
            if t is None:
                continue
            if event.type == MATCH_CREATED:
                decided = domain.matched(t, str(d["match_id"]))
            else:
                decided = domain.failed(
                    t,
                    str(d["match_id"]),
                    str(d.get("reason") or "rejected"),
                    d.get("message"),
                    _problems(d.get("problems")),
                )
            if decided:
                self._append(conn, domain.ticket_stream(ticket_id), t.version, decided, now, event.event_id)

    # -- views ---------------------------------------------------------------------------------

    @staticmethod
    def describe(t: domain.Ticket, now: datetime) -> dict[str, Any]:
        """A ticket as its player sees it: status, seconds waited, the current rating window
        (ranked and waiting; None = unlimited), the match id once matched, why it failed."""
        view: dict[str, Any] = {
            "ticket_id": t.ticket_id,
            "mode": t.mode,
            "status": t.status,
            "waited_seconds": round(t.waited(now), 1),
            "rating": t.rating,
        }
        if t.status == domain.WAITING and t.mode == "ranked":
            w = domain.window(t.waited(now))
            view["window"] = None if w == float("inf") else int(w)
        if t.status == domain.MATCHED:
            view["match_id"] = t.match_id
        if t.status in (domain.FAILED, domain.CANCELLED):
            view["reason"] = t.reason
        if t.status == domain.FAILED:
            view["message"], view["problems"] = t.message, list(t.problems)
        return view
