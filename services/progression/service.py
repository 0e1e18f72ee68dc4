"""The progression service object: commands in, events appended with their read models, views out.

Every command runs in one transaction: read the stream, decide with the pure domain, append at the
expected version, apply the read models. A concurrent append to the same stream raises
``ConcurrencyError``; HTTP commands are retried from a fresh read, consumers roll back and redeliver.
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg_pool import ConnectionPool

from libs import clock
from libs.eventstore import ConcurrencyError, EventStore, NewEvent, RecordedEvent
from services.progression import projections
from services.progression.domain import (
    RecordMatch,
    RecordVisit,
    RewardAlreadyGranted,
    SwapQuest,
    event_from,
    quests,
    season_of,
    season_pass,
    streak,
)
from services.progression.events import Event, QuestCompleted

log = logging.getLogger(__name__)

RETRIES = 5

# A transaction to write in: the request's (``libs.web.request_transaction``) or a pooled one.
UnitOfWork = Callable[[], AbstractContextManager[psycopg.Connection[Any]]]


def draw_seed() -> int:
    return secrets.randbits(63)


class ProgressionService:
    """Quests, streak and pass of every player, in ``schema``."""

    def __init__(self, pool: ConnectionPool, schema: str, *, seeds: Callable[[], int] = draw_seed) -> None:
        self.pool = pool
        self.schema = schema
        self.store = EventStore(pool, schema)
        self.seeds = seeds

    # -- the event store and the read models ---------------------------------------------------

    def _history(self, conn: psycopg.Connection[Any], stream: str) -> list[Event]:
        return [event_from(e.type, e.data) for e in self.store.read(stream, conn=conn)]

    def _append(
        self,
        conn: psycopg.Connection[Any],
        stream: str,
        expected: int,
        events: list[Event],
        cause: RecordedEvent | None = None,
    ) -> None:
        """Append ``events`` at ``expected`` and apply them to the read models, in ``conn``'s
        transaction and in one round trip (a pipeline). Raises ``ConcurrencyError`` and
        ``RewardAlreadyGranted`` (a reward id recorded already: the rewards table's unique key);
        the transaction is then failed and must be rolled back."""
        if not events:
            return
        now = clock.now()
        correlation = (cause.correlation_id or cause.event_id) if cause else None
        causation = cause.event_id if cause else None
        new = [
            NewEvent.of(e, occurred_at=now, correlation_id=correlation, causation_id=causation)
            for e in events
        ]
        try:
            with conn.pipeline():
                queued = self.store.append_queued(conn, stream, expected, new)
                projections.apply_appended(conn, self.schema, queued.predicted())
        except pg_errors.UniqueViolation as exc:
            if exc.diag.constraint_name == "rewards_pkey":
                raise RewardAlreadyGranted(str(exc.diag.message_detail)) from None
            raise self.store.append_failure(exc, stream, expected) from None
        except psycopg.Error as exc:
            raise self.store.append_failure(exc, stream, expected) from None

    @contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection[Any]]:
        with self.pool.connection() as conn, conn.transaction():
            yield conn

    def _retried(
        self, command: Callable[[psycopg.Connection[Any]], Any], transaction: UnitOfWork | None = None
    ) -> Any:
        """Run ``command`` in a ``transaction()`` (default: a pooled one), again from a fresh read
        after a ``ConcurrencyError``."""
        for attempt in range(RETRIES):
            try:
                with (transaction or self._transaction)() as conn:
                    return command(conn)
            except ConcurrencyError:
                if attempt == RETRIES - 1:
                    raise
                log.info("concurrent append; retrying (%d)", attempt + 1)
        raise AssertionError("unreachable")

    # -- quests --------------------------------------------------------------------------------

    def _quest_day(
        self, conn: psycopg.Connection[Any], player: str, day: dt.date
    ) -> tuple[quests.QuestDay, list[Event]]:
        """The player's quests of ``day``, with the day's offer drawn now (a seed drawn and written)
        if none was made: (the state, offer included; the offer's events, still to append)."""
        iso = day.isoformat()
        state = quests.fold(player, iso, self._history(conn, quests.quests_stream(player, iso)))
        offer = quests.offer(state, self.seeds())
        for e in offer:
            quests.evolve(state, e)
        return state, offer

    def _append_quests(
        self,
        conn: psycopg.Connection[Any],
        state: quests.QuestDay,
        offer: list[Event],
        events: list[Event],
        cause: RecordedEvent | None = None,
    ) -> None:
        """Append a pending offer and ``events`` (decided on ``state``) to the day's stream, at once."""
        stream = quests.quests_stream(state.player_id, state.day)
        self._append(conn, stream, state.version - len(offer), offer + events, cause)

    def offer_quests(
        self, player: str, day: dt.date, transaction: UnitOfWork | None = None
    ) -> quests.QuestDay:
        """The day's quests of ``player`` (offered on first look)."""

        def run(conn: psycopg.Connection[Any]) -> quests.QuestDay:
            state, offer = self._quest_day(conn, player, day)
            self._append_quests(conn, state, offer, [])
            return state

        return self._retried(run, transaction)

    def swap_quest(self, command: SwapQuest, transaction: UnitOfWork | None = None) -> quests.QuestDay:
        """Raises ``QuestNotOffered``, ``QuestAlreadyCompleted``, ``SwapAlreadyUsed``; nothing is
        written then (not even the day's offer)."""

        def run(conn: psycopg.Connection[Any]) -> quests.QuestDay:
            state, offer = self._quest_day(conn, command.player_id, command.day)
            events = quests.swap(state, command.quest_id, self.seeds())
            self._append_quests(conn, state, offer, events)
            for e in events:
                quests.evolve(state, e)
            return state

        return self._retried(run, transaction)

    # -- matches -------------------------------------------------------------------------------

    def record_match(self, command: RecordMatch, conn: psycopg.Connection[Any], cause: RecordedEvent) -> None:
        """Move the quests and passes of the players an ended match counts for (its verdict)."""
        match = command.match
        if not match.counts:
            return
        for player in match.counted_players():
            state, offer = self._quest_day(conn, player, match.day)
            events = quests.progress(state, match)
            self._append_quests(conn, state, offer, events, cause)
            grants = [(match.xp_for(player), {"match_id": match.match_id})]
            grants += [
                (e.xp, {"quest_id": e.quest_id, "day": e.day})
                for e in events
                if isinstance(e, QuestCompleted)
            ]
            self._earn_xp(conn, player, match.day, grants, cause)

    def _earn_xp(
        self,
        conn: psycopg.Connection[Any],
        player: str,
        day: dt.date,
        grants: list[tuple[int, dict[str, str]]],
        cause: RecordedEvent,
    ) -> None:
        season = season_of(day)
        if season is None:
            log.warning("no season holds %s: %s's XP counts toward nothing", day, player)
            return
        stream = season_pass.pass_stream(player, season.id)
        state = season_pass.fold(player, season.id, self._history(conn, stream))
        events: list[Event] = []
        for xp, source in grants:
            new = season_pass.earn(state, season, xp, source)
            for e in new:
                season_pass.evolve(state, e)
            events += new
        self._append(conn, stream, state.version - len(events), events, cause)

    # -- the streak ----------------------------------------------------------------------------

    def record_visit(self, command: RecordVisit, conn: psycopg.Connection[Any], cause: RecordedEvent) -> None:
        """A log-in on ``command.day``: the first of the day keeps the streak and pays its reward."""
        stream = streak.streak_stream(command.player_id)
        state = streak.fold(command.player_id, self._history(conn, stream))
        self._append(conn, stream, state.version, streak.visit(state, command.day), cause)
