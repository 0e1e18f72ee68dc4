"""Reading matches: a stream folded once per process and kept in an LRU cache, so a load reads only the
events after the cached version (and a command at the cached version reads nothing)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from libs.eventstore import EventStore, RecordedEvent
from services.match import domain
from services.match.domain import Match
from services.match.errors import MatchNotFound

CACHE_SIZE = 5000


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


class MatchLoader:
    """Loads matches through the cache; reads a match's stored events."""

    def __init__(self, pool: ConnectionPool, schema: str, cache: MatchCache | None = None) -> None:
        self.pool = pool
        self.events = EventStore(pool, schema)
        self.cache = cache or MatchCache()

    def reading(self) -> AbstractContextManager[psycopg.Connection[Any]]:
        """A pooled autocommit connection (see ``reading``)."""
        return reading(self.pool)

    def load(self, match_id: str, conn: psycopg.Connection[Any] | None = None) -> Match | None:
        """The match as stored now (None when there is no such stream), read in ``conn`` or in a
        connection of its own."""
        cached = self.cache.get(match_id)
        start = cached.version + 1 if cached else 1
        if conn is None:
            with self.reading() as own:
                tail = self.events.read(stream_of(match_id), start, conn=own)
        else:
            tail = self.events.read(stream_of(match_id), start, conn=conn)
        if not tail:
            return cached
        m = domain.fold_match(as_rows(tail), cached)
        self.cache.remember(m)
        return m

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

    def read_events(self, match_id: str, after: int = 0) -> list[RecordedEvent]:
        """The match's stored events after version ``after``."""
        with self.reading() as conn:
            return self.events.read(stream_of(match_id), after + 1, conn=conn)

    def verify_replay(self, match_id: str) -> list[str]:
        """Problems found replaying the whole stream against its stored state hashes (empty: none)."""
        return domain.replay_problems(as_rows(self.events.read(stream_of(match_id))))
