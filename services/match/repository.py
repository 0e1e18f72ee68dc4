"""The match streams (``match-<id>`` in the event store): loads through a per-process fold cache, and
appends of decisions with the index update, the NOTIFY and (for an ended match) the presence cleanup
in the same transaction. Every end goes through here: a ``MatchEnded`` gets each player's fair-play
verdict (``fairplay.judged``) in the transaction that appends it.

Loads: a stream is folded once per process and kept in an LRU cache, so a load reads only the events
after the cached version (and a command at the cached version reads nothing). A cold load starts
from the stream's snapshot, stored every ``SNAPSHOT_EVERY`` versions in the append's transaction
(``domain.snapshot_match``; one of another shape is ignored), and folds only the events after it.
Appends: at the version the decision was decided on, optionally queued on a pipelined connection,
so the whole write is one round trip with the COMMIT.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
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
    Expect,
    NewEvent,
    QueuedAppend,
    RecordedEvent,
    Repository,
    UnitOfWork,
)
from services.match import domain, fairplay, projections, store, upcasting
from services.match.domain import Decision, Match
from services.match.errors import MatchNotFound, VersionConflict
from services.match.upcasting import SERVICE_UPCASTERS, opening_game, schema_version, upcast


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
T = TypeVar("T")


def stream_of(match_id: str) -> str:
    return f"match-{match_id}"


def as_rows(events: Sequence[RecordedEvent]) -> list[tuple[str, Mapping[str, Any], Any, int]]:
    """Stored events as the domain folds them: (type, data, occurred_at, version)."""
    return [(e.type, e.data, e.occurred_at, e.version) for e in events]


@contextmanager
def reading(pool: ConnectionPool) -> Iterator[psycopg.Connection[Any]]:
    """A pooled connection in autocommit mode: each read is one round trip (no BEGIN/COMMIT)."""
    with pool.connection() as conn:
        conn.autocommit = True
        try:
            yield conn
        finally:
            conn.autocommit = False


class MatchCache:
    """Committed matches by id, the least recently used dropped beyond ``size``. Thread-safe."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._matches: OrderedDict[str, Match] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, match_id: str) -> Match | None:
        with self._lock:
            return self._matches.get(match_id)

    def remember(self, m: Match) -> None:
        """Keep ``m`` (it must be committed: the cache is read without the database) unless a later
        version of it is known."""
        with self._lock:
            known = self._matches.get(m.match_id)
            if known is None or known.version < m.version:
                self._matches[m.match_id] = m
            self._matches.move_to_end(m.match_id)
            while len(self._matches) > self.size:
                self._matches.popitem(last=False)


class MatchRepository:
    """Loads matches through the cache, reads their stored events, appends decisions."""

    def __init__(self, pool: ConnectionPool, schema: str, cache: MatchCache | None = None) -> None:
        self.pool = pool
        self.schema = schema
        self.events = EventStore(pool, schema, SERVICE_UPCASTERS)  # a game's events: ``upcast`` by its game
        self.commands = Repository(pool, self.events)  # the one command path: retries after a lost race
        self.cache = cache or MatchCache()

    def execute(
        self, command: Callable[[UnitOfWork], T], *, conn: psycopg.Connection[Any] | None = None
    ) -> T:
        """``command(uow)`` through ``libs.eventstore``'s one command path: in a transaction of its own
        (or a savepoint of ``conn``'s), run again from a fresh read when its append loses a race, at
        most ``ATTEMPTS`` times (then ``TooManyConflicts``). ``command`` appends with ``append(...,
        uow.conn)``; a match it appends in its own transaction is cached by the caller once committed."""
        return self.commands.execute(command, conn=conn)

    def reading(self) -> AbstractContextManager[psycopg.Connection[Any]]:
        """A pooled autocommit connection (see ``reading``)."""
        return reading(self.pool)

    def load(self, match_id: str, conn: psycopg.Connection[Any] | None = None) -> Match | None:
        """The match as stored now (None when there is no such stream), read in ``conn`` or in a
        connection of its own: from the cached fold, else from the stream's snapshot, and the
        events after it."""
        if conn is None:
            with self.reading() as own:
                return self._load(match_id, own)
        return self._load(match_id, conn)

    def _load(self, match_id: str, conn: psycopg.Connection[Any]) -> Match | None:
        cached = self.cache.get(match_id)
        base = cached if cached is not None else self.snapshot(match_id, conn)
        tail = self.events.read(stream_of(match_id), base.version + 1 if base else 1, conn=conn)
        tail = upcast(tail, base.game if base else None)
        m = domain.fold_match(as_rows(tail), base) if tail else base
        if m is not None and m is not cached:
            self.cache.remember(m)
        return m

    def snapshot(self, match_id: str, conn: psycopg.Connection[Any]) -> Match | None:
        """The match as its stored snapshot holds it (None: none, or of another shape)."""
        found = self.events.load_snapshot(stream_of(match_id), conn=conn)
        return domain.restore_match(found[1]) if found is not None else None

    def snapshots(self, match_ids: Sequence[str], conn: psycopg.Connection[Any]) -> dict[str, Match]:
        """The matches of ``match_ids`` that have a stored snapshot of the current shape (one query)."""
        found = self.events.load_snapshots([stream_of(i) for i in match_ids], conn=conn)
        restored = {i: domain.restore_match(found[s][1]) for i in match_ids if (s := stream_of(i)) in found}
        return {i: m for i, m in restored.items() if m is not None}

    def load_for(self, match_id: str, player: str, conn: psycopg.Connection[Any] | None = None) -> Match:
        """The match if ``player`` is one of its players; raises ``MatchNotFound`` otherwise."""
        m = self.load(match_id, conn)
        if m is None or m.rejected or player not in m.players:
            raise MatchNotFound(match_id)
        return m

    def cached_at(self, match_id: str, player: str, version: int | None) -> Match | None:
        """The match at exactly ``version`` from this process's cache, if it holds that version and
        ``player`` plays in it; else None (read it). A command that names the version it was
        decided on needs no read then: the state at a version never changes, and the append at
        that version fails if the match has moved on since."""
        if version is None:
            return None
        cached = self.cache.get(match_id)
        if cached is None or cached.version != version or cached.rejected or player not in cached.players:
            return None
        return cached

    def read_events(self, match_id: str, after: int = 0, game: str | None = None) -> list[RecordedEvent]:
        """The match's stored events after version ``after``, in their current shapes (``game``: the
        match's, when the caller knows it; else from the cache or the stream's ``MatchCreated``)."""
        with self.reading() as conn:
            events = self.events.read(stream_of(match_id), after + 1, conn=conn)
            if game is None and after > 0 and events:
                cached = self.cache.get(match_id)
                opening = self.events.read(stream_of(match_id), 1, 1, conn=conn) if cached is None else []
                game = cached.game if cached is not None else upcasting.game_of(opening)
            return upcast(events, game)

    def verify_replay(self, match_id: str) -> list[str]:
        """Problems found replaying the whole stream against its stored state hashes (empty: none)."""
        return domain.replay_problems(as_rows(upcast(self.events.read(stream_of(match_id)))))

    def append(
        self,
        before: Match | None,
        match_id: str,
        decision: Decision,
        conn: psycopg.Connection[Any] | None,
        *,
        savepoint: bool = True,
        queued: bool = False,
    ) -> Outcome:
        """Append ``decision`` at ``before``'s version in ``conn``'s transaction (or a transaction of its
        own, whose result is then cached), index and announce it. The match after it takes the game
        state the decision computed: the game's events are not folded again.

        ``savepoint=False`` (two round trips fewer) when the caller's transaction is abandoned on
        any error; without ``conn`` the own transaction needs none. ``queued`` (with ``conn``): the
        append's result is not waited for, so on a pipelined connection the whole write is one
        round trip with the COMMIT; a refused append is then raised as a ``psycopg.Error`` when
        the pipeline syncs (see ``refused_appends``), and ``confirmed`` reads the positions.
        Raises ``ConcurrencyError`` when the stream is not at ``before``'s version (not queued).
        """
        now = clock.now()
        expected = before.version if before is not None else Expect.NO_STREAM

        def write(c: psycopg.Connection[Any]) -> tuple[list[RecordedEvent], QueuedAppend | None, Match]:
            pending = None
            judged = fairplay.judged(c, self.schema, decision.events, now.astimezone(UTC).date())
            game = before.game if before is not None else opening_game(judged[0][1])
            new = [NewEvent(kind, data, schema_version(game, kind), occurred_at=now) for kind, data in judged]
            if queued:
                pending = self.events.append_queued(c, stream_of(match_id), expected, new)
                recorded = pending.predicted()
            else:
                recorded = self.events.append(
                    stream_of(match_id), expected, new, conn=c, savepoint=savepoint and conn is not None
                )
            after = domain.fold_decided(before, as_rows(recorded), decision.rules)
            if after.version // SNAPSHOT_EVERY > (before.version if before else 0) // SNAPSHOT_EVERY:
                self._keep_snapshot(c, after)
            if after.ended:
                store.forget_presence(c, self.schema, match_id)
            # the index update and the NOTIFY (sent on commit) in one statement
            announce = (store.channel(self.schema), f"{match_id}:{recorded[-1].version}")
            projections.apply(c, self.schema, after, now, notify=announce)
            return recorded, pending, after

        if conn is not None:
            recorded, pending, after = write(conn)
        else:
            with self.pool.connection() as own, own.transaction():
                recorded, pending, after = write(own)
        if conn is None:
            self.cache.remember(after)
        return Outcome(before, after, recorded, pending)

    def _keep_snapshot(self, conn: psycopg.Connection[Any], m: Match) -> None:
        """Store ``m`` as its stream's snapshot in ``conn``'s transaction (committed or rolled back
        with the append), unless another open transaction is writing it (never waited for)."""
        kept = domain.snapshot_match(m)
        if kept is not None:
            self.events.save_snapshot(stream_of(m.match_id), m.version, kept, conn=conn)

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
        not taken, and the version named is where the stream is at least."""
        try:
            yield
        except psycopg.Error as exc:
            stream = stream_of(match_id)
            failure = self.events.append_failure(exc, stream, expected or 0)
            if isinstance(failure, ConcurrencyError):
                current = self.events.version(stream) if read_current else int(failure.actual)
                raise VersionConflict(current) from None
            raise
