"""An event store in memory, behind the same ``Repository`` as the PostgreSQL one, for tests of a
service's command path that need no SQL (tests/integration/eventstore/test_store_contract.py holds
it to the same contract as ``EventStore``).

The same semantics as the PostgreSQL store: a stream's versions are gap-free and unique (an append
at a version taken, or at one the stream is not at, raises ``ConcurrencyError`` with the stream's
version; an event id stored twice, ``DuplicateEventError``); a transaction's appends and snapshots
are seen by its own reads at once and by others once it commits, all or none; positions are taken
at the append, unique and increasing, so a rolled-back append leaves a gap, and ``read_all`` stops
below the first position of every open transaction (a follower never passes an event that commits
later with a lower position). Where PostgreSQL makes a second writer at the same version wait for
the first to end, this store lets both go on and refuses the second at its commit (the same
``ConcurrencyError``, raised when its ``transaction()`` block ends). Thread-safe.
"""

from __future__ import annotations

import bisect
import json
import threading
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from typing import Any

from libs.eventstore.envelope import NewEvent, RecordedEvent
from libs.eventstore.errors import ConcurrencyError, DuplicateEventError
from libs.eventstore.store import Expect, ExpectedVersion, check_expected, in_batches
from libs.eventstore.upcasting import Upcasters


@dataclass
class _Append:
    stream: str
    expected: int  # the version the stream was at (0: new)
    events: list[RecordedEvent]


@dataclass
class MemoryTransaction:
    """One open transaction of a ``MemoryEventStore`` (what its ``transaction()`` yields, passed on
    as ``uow.conn``). ``transaction()`` on it is a savepoint, ``pipeline()`` changes nothing."""

    store: MemoryEventStore
    appends: list[_Append] = field(default_factory=list)
    snapshots: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)

    def transaction(self) -> Any:
        return self.store.savepoint(self)

    def pipeline(self) -> Any:
        return nullcontext()

    def pending(self, stream: str) -> list[RecordedEvent]:
        return [e for a in self.appends if a.stream == stream for e in a.events]


class _Queued:
    """A pipelined append here: done at once."""

    def __init__(self, recorded: list[RecordedEvent]) -> None:
        self._recorded = recorded

    def predicted(self) -> list[RecordedEvent]:
        return list(self._recorded)

    def recorded(self) -> list[RecordedEvent]:
        return list(self._recorded)


class MemoryEventStore:
    """Streams, the global order and snapshots, in this process's memory."""

    def __init__(self, upcasters: Upcasters | None = None) -> None:
        self.upcasters = upcasters or Upcasters()
        self._lock = threading.RLock()
        self._streams: dict[str, list[RecordedEvent]] = {}
        self._log: list[RecordedEvent] = []  # committed, in position order
        self._ids: set[uuid.UUID] = set()
        self._snapshots: dict[str, tuple[int, dict[str, Any]]] = {}
        self._next_position = 1
        self._in_flight: dict[int, int] = {}  # first position of an open transaction's append -> count

    # -- transactions ------------------------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[MemoryTransaction]:
        tx = MemoryTransaction(self)
        try:
            yield tx
        except BaseException:
            self._rollback(tx, 0)
            raise
        self._commit(tx)

    @contextmanager
    def savepoint(self, conn: MemoryTransaction) -> Iterator[MemoryTransaction]:
        mark, kept = len(conn.appends), dict(conn.snapshots)
        try:
            yield conn
        except BaseException:
            self._rollback(conn, mark)
            conn.snapshots = kept
            raise

    def pipeline(self, conn: MemoryTransaction) -> Any:
        return nullcontext()

    def moved(self, exc: BaseException) -> bool:
        return isinstance(exc, ConcurrencyError)

    def committed_reads(self, conn: MemoryTransaction | None) -> bool:
        return conn is None or not conn.appends

    def _rollback(self, tx: MemoryTransaction, mark: int) -> None:
        with self._lock:
            for a in tx.appends[mark:]:
                self._release(a)
            del tx.appends[mark:]

    def _release(self, a: _Append) -> None:
        first = a.events[0].position
        self._in_flight[first] -= 1
        if not self._in_flight[first]:
            del self._in_flight[first]

    def _commit(self, tx: MemoryTransaction) -> None:
        with self._lock:
            try:
                for a in tx.appends:
                    self._check_committable(a, tx)
            except BaseException:
                self._rollback(tx, 0)
                raise
            for a in tx.appends:
                self._store(a)
                self._release(a)
            for stream, (version, state) in tx.snapshots.items():
                self._keep_snapshot(stream, version, state)
            tx.appends.clear()

    def _check_committable(self, a: _Append, tx: MemoryTransaction) -> None:
        """Another transaction may have committed at the same versions meanwhile."""
        earlier = [b for b in tx.appends[: tx.appends.index(a)] if b.stream == a.stream]
        at = len(self._streams.get(a.stream, ())) + sum(len(b.events) for b in earlier)
        if at != a.expected:
            raise ConcurrencyError(a.stream, a.expected, len(self._streams.get(a.stream, ())))
        for e in a.events:
            if e.event_id in self._ids:
                raise DuplicateEventError(f"Key (event_id)=({e.event_id}) already exists.")

    def _store(self, a: _Append) -> None:
        self._streams.setdefault(a.stream, []).extend(a.events)
        self._ids.update(e.event_id for e in a.events)
        for e in a.events:
            bisect.insort(self._log, e, key=lambda r: r.position)

    # -- writing -----------------------------------------------------------------------------------

    def append(
        self,
        stream: str,
        expected_version: ExpectedVersion,
        events: Sequence[NewEvent],
        *,
        conn: MemoryTransaction | None = None,
        savepoint: bool = True,
    ) -> list[RecordedEvent]:
        """As ``EventStore.append``: in ``conn``'s transaction, or committed at once."""
        if not events:
            return []
        check_expected(expected_version)
        if conn is None:
            with self.transaction() as own:
                return self._append_in(own, stream, expected_version, events)
        return self._append_in(conn, stream, expected_version, events)

    def append_pipelined(
        self,
        conn: MemoryTransaction,
        stream: str,
        expected: int,
        events: Sequence[NewEvent],
        then: Callable[[list[RecordedEvent]], None],
    ) -> _Queued:
        recorded = self._append_in(conn, stream, expected, events)
        then(recorded)
        return _Queued(recorded)

    def _append_in(
        self, tx: MemoryTransaction, stream: str, expected: ExpectedVersion, events: Sequence[NewEvent]
    ) -> list[RecordedEvent]:
        with self._lock:
            current = len(self._streams.get(stream, ())) + len(tx.pending(stream))
            if (isinstance(expected, int) and current != expected) or (
                expected == Expect.STREAM_EXISTS and current == 0
            ):
                raise ConcurrencyError(stream, expected, current)
            taken = {e.event_id for a in tx.appends for e in a.events} | self._ids
            for e in events:
                if e.event_id in taken:
                    raise DuplicateEventError(f"Key (event_id)=({e.event_id}) already exists.")
            first = self._next_position
            self._next_position += len(events)
            self._in_flight[first] = self._in_flight.get(first, 0) + 1
            recorded = [_recorded(e, stream, current + 1 + i, first + i) for i, e in enumerate(events)]
            tx.appends.append(_Append(stream, current, recorded))
            return recorded

    def save_snapshot(
        self, stream: str, version: int, state: dict[str, Any], *, conn: MemoryTransaction | None = None
    ) -> None:
        """Keep ``state`` as the fold of ``stream`` up to ``version`` (newer snapshots win), with
        ``conn``'s transaction."""
        if conn is not None:
            known = conn.snapshots.get(stream)
            if known is None or known[0] < version:
                conn.snapshots[stream] = (version, state)
            return
        with self._lock:
            self._keep_snapshot(stream, version, state)

    def _keep_snapshot(self, stream: str, version: int, state: dict[str, Any]) -> None:
        known = self._snapshots.get(stream)
        if known is None or known[0] < version:
            self._snapshots[stream] = (version, state)

    # -- reading -----------------------------------------------------------------------------------

    def _events(self, stream: str, conn: MemoryTransaction | None) -> list[RecordedEvent]:
        with self._lock:
            committed = list(self._streams.get(stream, ()))
        return committed + (conn.pending(stream) if conn is not None else [])

    def version(self, stream: str, *, conn: MemoryTransaction | None = None) -> int:
        return len(self._events(stream, conn))

    def read(
        self,
        stream: str,
        from_version: int = 1,
        to_version: int | None = None,
        *,
        conn: MemoryTransaction | None = None,
    ) -> list[RecordedEvent]:
        events = self._events(stream, conn)
        upper = len(events) if to_version is None else to_version
        return [self.upcasters.upcast(e) for e in events[max(from_version, 1) - 1 : max(upper, 0)]]

    def read_many(
        self, starts: Mapping[str, int], *, conn: MemoryTransaction | None = None
    ) -> dict[str, list[RecordedEvent]]:
        return {stream: self.read(stream, start, conn=conn) for stream, start in starts.items()}

    def read_all(
        self, from_position: int = 0, limit: int = 1000, *, conn: MemoryTransaction | None = None
    ) -> list[RecordedEvent]:
        """Committed events with ``position > from_position``, in position order, up to ``limit``, none
        at or beyond the first position of a transaction still open."""
        with self._lock:
            safe = min(self._in_flight) - 1 if self._in_flight else self._next_position
            start = bisect.bisect_right(self._log, from_position, key=lambda r: r.position)
            found = [e for e in self._log[start : start + limit] if e.position <= safe]
        return [self.upcasters.upcast(e) for e in found]

    def iter_all(self, from_position: int = 0, batch: int = 5000) -> Iterator[RecordedEvent]:
        return in_batches(self.read_all, from_position, batch)

    def head_position(self, *, conn: MemoryTransaction | None = None) -> int:
        with self._lock:
            return self._log[-1].position if self._log else 0

    def load_snapshot(
        self, stream: str, *, conn: MemoryTransaction | None = None
    ) -> tuple[int, dict[str, Any]] | None:
        if conn is not None and stream in conn.snapshots:
            return conn.snapshots[stream]
        with self._lock:
            return self._snapshots.get(stream)

    def load_snapshots(
        self, streams: Sequence[str], *, conn: MemoryTransaction | None = None
    ) -> dict[str, tuple[int, dict[str, Any]]]:
        found = {s: self.load_snapshot(s, conn=conn) for s in streams}
        return {s: kept for s, kept in found.items() if kept is not None}


def _recorded(e: NewEvent, stream: str, version: int, position: int) -> RecordedEvent:
    """``e`` as stored: its data through JSON, as the PostgreSQL store keeps it (a copy, no tuples)."""
    return RecordedEvent(
        e.event_id,
        stream,
        version,
        position,
        e.type,
        e.schema_version,
        e.occurred_at,
        e.correlation_id,
        e.causation_id,
        json.loads(json.dumps(e.data)),
    )
