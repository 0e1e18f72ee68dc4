"""The match streams (``match-<id>`` in the event store) on the one command path of
``libs.eventstore`` (``Repository``, ``UnitOfWork``): what match adds to it is its fold, its
snapshots, and the writes that go with every decision stored. Every end goes through here: a
``MatchEnded`` gets each player's fair-play verdict (``fairplay.judged``) in the transaction that
appends it.

Loads (``Repository.get``): a stream is folded once per process and kept in the fold's cache, so a
load reads only the events after the cached version, and a command decided at the cached version
reads nothing (``Repository.peek``). A cold load starts from the stream's snapshot, stored every
``SNAPSHOT_EVERY`` versions in the append's transaction (``domain.snapshot_match``; one of another
shape is ignored), and folds only the events after it.
Decisions (``UnitOfWork.record``): appended at the version they were decided on, optionally queued
on a pipelined connection with their index row, NOTIFY and (for an ended match) presence cleanup
(``before_commit``), so the whole write is one round trip with the COMMIT; the match after them is
the one the decision computed (its game's events are not folded again), handed to the cache once
the transaction committed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from datetime import UTC
from typing import Any, TypeVar

import psycopg
from psycopg_pool import ConnectionPool

from libs import clock
from libs.eventstore import (
    ConcurrencyError,
    EventStore,
    Fold,
    Loaded,
    NewEvent,
    QueuedAppend,
    RecordedEvent,
    Repository,
    Snapshots,
    StreamCache,
    UnitOfWork,
)
from services.match import domain, fairplay, projections, store, upcasting
from services.match.domain import Decision, Match
from services.match.errors import MatchNotFound, VersionConflict
from services.match.upcasting import SERVICE_UPCASTERS, opening_game, schema_version, upcast, upcast_event


@dataclass(frozen=True)
class Outcome:
    """A stored decision: the match before and after it, and its events as recorded."""

    before: Match | None
    after: Match
    recorded: Sequence[RecordedEvent]
    pending: QueuedAppend | None = None  # a queued append: positions unknown until it syncs


CACHE_SIZE = 5000
# A snapshot of the match is stored with the append that crosses each multiple of this version: a cold
# load (after a restart, or beyond the cache) reads it and folds at most this many events more. An
# Arcana match is a few hundred events (about 10 a turn, 20 to 40 turns), an arena match fewer: one
# every 50 keeps a cold load within 50 events (a fifth or less of a typical stream) for a write of
# the state (a few kB) every 50 events, taken only if no other transaction is writing it.
SNAPSHOT_EVERY = 50
# The event store's envelope of a match snapshot (the match's own shape is inside: ``domain``).
SNAPSHOTS = Snapshots[Match | None](
    2, lambda m: None if m is None else domain.snapshot_match(m), domain.restore_match, every=SNAPSHOT_EVERY
)
T = TypeVar("T")


def stream_of(match_id: str) -> str:
    return f"match-{match_id}"


def as_rows(events: Sequence[RecordedEvent]) -> list[tuple[str, Mapping[str, Any], Any, int]]:
    """Stored events as the domain folds them: (type, data, occurred_at, version)."""
    return [(e.type, e.data, e.occurred_at, e.version) for e in events]


def evolve(m: Match | None, event: RecordedEvent) -> Match:
    """The match after one stored event, read in its current shape (by the stream's game)."""
    current = upcast_event(event, m.game if m is not None else opening_game(event.data))
    return domain.evolve_match(m, current.type, current.data, current.occurred_at, current.version)


@contextmanager
def reading(pool: ConnectionPool) -> Iterator[psycopg.Connection[Any]]:
    """A pooled connection in autocommit mode: each read is one round trip (no BEGIN/COMMIT)."""
    with pool.connection() as conn:
        conn.autocommit = True
        try:
            yield conn
        finally:
            conn.autocommit = False


class MatchRepository:
    """Loads matches, reads their stored events, stores decisions (see the module's docstring)."""

    def __init__(self, pool: ConnectionPool, schema: str, cache: StreamCache | None = None) -> None:
        self.pool = pool
        self.schema = schema
        self.events = EventStore(pool, schema, SERVICE_UPCASTERS)  # a game's events: ``upcast`` by its game
        self.repository = Repository(self.events)  # the one command path: retries after a lost race
        self.cache = cache or StreamCache(CACHE_SIZE)
        self.fold: Fold[Match | None] = Fold(lambda: None, evolve, SNAPSHOTS, self.cache, self._before_commit)

    def execute(
        self, command: Callable[[UnitOfWork], T], *, conn: psycopg.Connection[Any] | None = None
    ) -> T:
        """``command(uow)`` through ``libs.eventstore``'s one command path: in a transaction of its own
        (or a savepoint of ``conn``'s), run again from a fresh read when its append loses a race, at
        most ``ATTEMPTS`` times (then ``TooManyConflicts``); what it ``record``s is cached."""
        return self.repository.execute(command, conn=conn)

    def unit_of_work(self, conn: psycopg.Connection[Any]) -> UnitOfWork:
        """A unit of work in ``conn``'s open transaction (hand it to ``committed`` once committed)."""
        return self.repository.unit_of_work(conn)

    def committed(self, uow: UnitOfWork, *, confirmed: bool = True) -> None:
        """The matches ``uow`` stored, to the cache (``confirmed``: its transaction has committed)."""
        self.repository.committed(uow, confirmed=confirmed)

    def reading(self) -> AbstractContextManager[psycopg.Connection[Any]]:
        """A pooled autocommit connection (see ``reading``)."""
        return reading(self.pool)

    # -- loads -------------------------------------------------------------------------------------

    def load(self, match_id: str, conn: psycopg.Connection[Any] | None = None) -> Match | None:
        """The match as stored now (None when there is no such stream), read in ``conn`` or in a
        connection of its own."""
        if conn is None:
            with self.reading() as own:
                return self.repository.get(own, stream_of(match_id), self.fold).state
        return self.repository.get(conn, stream_of(match_id), self.fold).state

    def load_many(self, match_ids: Sequence[str], conn: psycopg.Connection[Any]) -> dict[str, Match]:
        """The matches of ``match_ids`` as stored now (three reads for all: ``Repository.get_many``);
        those that do not exist, or whose stream cannot be read (an unknown game), are left out."""
        try:
            return self._loaded_many(match_ids, conn)
        except ValueError:  # a stream that cannot be read: each on its own, that one left out
            found: dict[str, Match] = {}
            for match_id in match_ids:
                try:
                    found.update(self._loaded_many([match_id], conn))
                except ValueError:
                    continue
            return found

    def _loaded_many(self, match_ids: Sequence[str], conn: psycopg.Connection[Any]) -> dict[str, Match]:
        streams = {stream_of(i): i for i in match_ids}
        loaded = self.repository.get_many(conn, list(streams), self.fold)
        return {streams[s]: got.state for s, got in loaded.items() if got.state is not None}

    def load_for(self, match_id: str, player: str, conn: psycopg.Connection[Any] | None = None) -> Match:
        """The match if ``player`` is one of its players; raises ``MatchNotFound`` otherwise."""
        m = self.load(match_id, conn)
        if m is None or m.rejected or player not in m.players:
            raise MatchNotFound(match_id)
        return m

    def cached_at(self, match_id: str, player: str, version: int | None) -> Match | None:
        """The match at exactly ``version`` from this process's cache, if it holds that version known
        committed and ``player`` plays in it; else None (read it). A command that names the version
        it was decided on needs no read then: the state at a version never changes, and the append
        at that version fails if the match has moved on since."""
        if version is None:
            return None
        cached = self.repository.peek(stream_of(match_id), self.fold)
        m = cached.state if cached is not None else None
        if m is None or m.version != version or m.rejected or player not in m.players:
            return None
        return m

    def advanced(self, m: Match, recorded: Sequence[RecordedEvent]) -> Match:
        """``m`` after the events of ``recorded`` (read outside a transaction, after ``m`` was loaded:
        they reach at least its version and follow it without a gap) it has not seen, cached."""
        tail = [e for e in recorded if e.version > m.version]
        if not tail:
            return m
        start: Loaded[Match | None] = Loaded(m, m.version)
        moved = self.repository.caught_up(stream_of(m.match_id), self.fold, start, tail)
        return moved.state or m

    # -- stored events ---------------------------------------------------------------------------

    def read_events(self, match_id: str, after: int = 0, game: str | None = None) -> list[RecordedEvent]:
        """The match's stored events after version ``after``, in their current shapes (``game``: the
        match's, when the caller knows it; else from the cache or the stream's ``MatchCreated``)."""
        with self.reading() as conn:
            events = self.events.read(stream_of(match_id), after + 1, conn=conn)
            if game is None and after > 0 and events:
                cached = self.cache.get(stream_of(match_id))
                known = cached.state.game if cached is not None and cached.state is not None else None
                opening = self.events.read(stream_of(match_id), 1, 1, conn=conn) if known is None else []
                game = known or upcasting.game_of(opening)
            return upcast(events, game)

    def verify_replay(self, match_id: str) -> list[str]:
        """Problems found replaying the whole stream against its stored state hashes (empty: none)."""
        return domain.replay_problems(as_rows(upcast(self.events.read(stream_of(match_id)))))

    # -- decisions ---------------------------------------------------------------------------------

    def record(
        self,
        uow: UnitOfWork,
        before: Match | None,
        match_id: str,
        decision: Decision,
        *,
        queued: bool = False,
        savepoint: bool = False,
    ) -> Outcome:
        """Store ``decision`` at ``before``'s version in ``uow``'s transaction, its ``MatchEnded`` judged
        for fair play first; the match after it takes the game state the decision computed.

        ``queued`` (on a pipelined connection): the append's result is not waited for, so the whole
        write is one round trip with the COMMIT; a refused append is then raised as a
        ``psycopg.Error`` when the pipeline syncs (see ``refused_appends``), and ``confirmed``
        reads the positions. Else raises ``ConcurrencyError`` when the stream is not at
        ``before``'s version (``savepoint``: the transaction stays usable then)."""
        now = clock.now()
        judged = fairplay.judged(uow.conn, self.schema, decision.events, now.astimezone(UTC).date())
        game = before.game if before is not None else opening_game(judged[0][1])
        new = [NewEvent(kind, data, schema_version(game, kind), occurred_at=now) for kind, data in judged]
        stored = uow.record(
            stream_of(match_id),
            Loaded(before, before.version if before is not None else 0),
            new,
            self.fold,
            decided=lambda m, recorded: domain.fold_decided(m, as_rows(recorded), decision.rules),
            pipelined=queued,
            savepoint=savepoint,
        )
        assert stored.state is not None
        return Outcome(before, stored.state, stored.events, stored.queued)

    def append(
        self,
        before: Match | None,
        match_id: str,
        decision: Decision,
        conn: psycopg.Connection[Any] | None = None,
    ) -> Outcome:
        """``record`` in ``conn``'s transaction, in a savepoint (the caller may go on after a
        ``ConcurrencyError``), or in a transaction of its own (not retried: ``before`` is given)."""
        if conn is not None:
            uow = self.unit_of_work(conn)
            outcome = self.record(uow, before, match_id, decision, savepoint=True)
            self.committed(uow, confirmed=False)  # the caller's transaction may still roll back
            return outcome
        with self.events.transaction() as own:
            uow = self.unit_of_work(own)
            outcome = self.record(uow, before, match_id, decision)
        self.committed(uow)
        return outcome

    def _before_commit(
        self,
        conn: psycopg.Connection[Any],
        stream: str,
        after: Match | None,
        recorded: Sequence[RecordedEvent],
    ) -> None:
        """What goes with every decision stored: an ended match's presence forgotten, the index row
        and the NOTIFY (sent on commit) in one statement."""
        assert after is not None
        if after.ended:
            store.forget_presence(conn, self.schema, after.match_id)
        announce = (store.channel(self.schema), f"{after.match_id}:{recorded[-1].version}")
        projections.apply(conn, self.schema, after, recorded[-1].occurred_at, notify=announce)

    @staticmethod
    def confirmed(outcome: Outcome) -> Outcome:
        """``outcome`` with its events as stored (their positions), once its transaction committed."""
        if outcome.pending is None:
            return outcome
        return Outcome(outcome.before, outcome.after, outcome.pending.recorded())

    @contextmanager
    def refused_appends(self, match_id: str, expected: int | None, *, read_current: bool) -> Iterator[None]:
        """Around a transaction holding a queued append: its refusal, raised when the pipeline
        syncs, becomes ``VersionConflict``. The version the refusal names is the first one the
        winner took (read from the error): when the winner appended several events the stream is
        further on. With ``read_current`` (the transaction's connection is back in the pool) the
        stream's version is read, so the 409 names the version to decide on; inside an outer
        transaction (an Idempotency-Key's, still holding its connection) a second connection is
        not taken, and the version named is where the stream is at least. A connection that was not
        in pipeline mode (an outer transaction's) synced the append's own pipeline at once: its
        refusal comes as ``ConcurrencyError``, and is answered the same way."""
        stream = stream_of(match_id)
        try:
            yield
        except (ConcurrencyError, psycopg.Error) as exc:
            failure = (
                exc
                if isinstance(exc, ConcurrencyError)
                else self.events.append_failure(exc, stream, expected or 0)
            )
            if not isinstance(failure, ConcurrencyError):
                raise
            current = self.events.version(stream) if read_current else int(failure.actual)
            raise VersionConflict(current) from None
