"""The PostgreSQL event store of one service (one schema).

Ordering technique (details in migrations/002_append_function.sql). Appends run concurrently and
take positions from a sequence; each append holds an advisory lock on its first position until
its transaction ends, so in-flight positions are visible to other sessions at once (pg_locks is
not subject to MVCC). A follower asks ``safe_position()`` for the highest position below every
in-flight append and reads only up to it: it can never pass an event that commits later with a
lower position, while writers keep PostgreSQL's group commit. Positions are unique and strictly
increasing; a rolled-back append leaves a gap. Stream versions are gap-free.

Callers that must write their own tables atomically with events pass their open connection
(``conn=``) and own the transaction; followers wait for that transaction to end.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Final

import psycopg
from psycopg import errors as pg_errors
from psycopg import pq, sql
from psycopg.pq import TransactionStatus
from psycopg_pool import ConnectionPool

from libs.eventstore.envelope import NewEvent, RecordedEvent
from libs.eventstore.errors import ConcurrencyError, DuplicateEventError
from libs.eventstore.upcasting import Upcasters


class Expect:
    """Expected-version values besides a plain version number."""

    NO_STREAM: Final = 0  # the stream must be new
    ANY: Final = "any"  # append at the end, whatever the version
    STREAM_EXISTS: Final = "exists"  # the stream must have at least one event


ExpectedVersion = int | str

_COLUMNS = (
    "event_id, stream, version, position, type, schema_version, occurred_at, "
    "correlation_id, causation_id, data"
)
_TAKEN = re.compile(r", (\d+)\) already exists")
_WRONG_VERSION = "AR409"  # raised by append_events(), see migrations/002_append_function.sql


def check_expected(expected: ExpectedVersion) -> int:
    if expected == Expect.ANY:
        return -1
    if expected == Expect.STREAM_EXISTS:
        return -2
    if isinstance(expected, int) and expected >= 0:
        return expected
    raise ValueError(
        f"expected version must be an int >= 0, Expect.ANY or Expect.STREAM_EXISTS: {expected!r}"
    )


def _row_to_event(row: tuple[Any, ...]) -> RecordedEvent:
    return RecordedEvent(*row)


class QueuedAppend:
    """An append sent in pipeline mode, its result still to be read."""

    def __init__(
        self, stream: str, expected: int, events: Sequence[NewEvent], cursor: psycopg.Cursor[Any]
    ) -> None:
        self.stream = stream
        self.expected = expected
        self.events = list(events)
        self._cursor = cursor
        self._predicted: list[RecordedEvent] | None = None

    def predicted(self) -> list[RecordedEvent]:
        """The events as they will be stored if the append succeeds, before the pipeline syncs:
        versions ``expected + 1`` on, position 0 (not known yet). Built once (do not change it)."""
        if self.expected < 0:
            raise ValueError("versions are known in advance only for an exact expected version")
        if self._predicted is None:
            self._predicted = self._build([(0, self.expected + 1 + i) for i in range(len(self.events))])
        return self._predicted

    def recorded(self) -> list[RecordedEvent]:
        """The events as stored (syncs the pipeline if it has not synced yet)."""
        return self._build(self._cursor.fetchall())

    def _build(self, rows: Sequence[tuple[int, int]]) -> list[RecordedEvent]:
        return [
            RecordedEvent(
                e.event_id,
                self.stream,
                version,
                position,
                e.type,
                e.schema_version,
                e.occurred_at,
                e.correlation_id,
                e.causation_id,
                e.data,
            )
            for e, (position, version) in zip(self.events, rows, strict=True)
        ]


def in_batches(
    read_all: Callable[[int, int], list[RecordedEvent]], from_position: int, batch: int
) -> Iterator[RecordedEvent]:
    """Every event after ``from_position``, ``read_all(position, batch)`` at a time, until a batch
    comes back short (both stores' ``iter_all``)."""
    position = from_position
    while True:
        events = read_all(position, batch)
        yield from events
        if len(events) < batch:
            return
        position = events[-1].position


class EventStore:
    """Append to and read from the ``events`` table of ``schema``."""

    def __init__(self, pool: ConnectionPool, schema: str, upcasters: Upcasters | None = None) -> None:
        self.pool = pool
        self.schema = schema
        self.upcasters = upcasters or Upcasters()
        table = sql.Identifier(schema, "events")
        self._table = table
        self._select = sql.SQL("SELECT " + _COLUMNS + " FROM {} ").format(table)
        self._append_sql = sql.SQL(
            "SELECT out_position, out_version FROM {}.append_events(%s, %s, %s::jsonb)"
        ).format(sql.Identifier(schema))
        self._safe_sql = sql.SQL("SELECT {}.safe_position()").format(sql.Identifier(schema))
        self._read_sql = self._select + sql.SQL(
            "WHERE stream = %s AND version >= %s AND version <= %s ORDER BY version"
        )
        self._bytes: dict[str, bytes] = {}
        self._read_all_sql = self._select + sql.SQL(
            "WHERE position > %s AND position <= %s ORDER BY position LIMIT %s"
        )

    def _query(self, name: str, query: sql.Composed, conn: psycopg.Connection[Any]) -> bytes:
        """``query`` as bytes, composed once (psycopg caches the parsing of bytes queries, not of
        ``Composed`` ones, which it would render again on every execution)."""
        found = self._bytes.get(name)
        if found is None:
            found = self._bytes[name] = query.as_bytes(conn)
        return found

    # -- transactions --------------------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection in a transaction of its own, committed when the block ends."""
        with self.pool.connection() as c, c.transaction():
            yield c

    @contextmanager
    def savepoint(self, conn: psycopg.Connection[Any]) -> Iterator[psycopg.Connection[Any]]:
        with conn.transaction():
            yield conn

    def pipeline(self, conn: psycopg.Connection[Any]) -> AbstractContextManager[Any]:
        return conn.pipeline()

    def moved(self, exc: BaseException) -> bool:
        if isinstance(exc, ConcurrencyError):
            return True
        return isinstance(exc, psycopg.Error) and stream_moved(exc)

    def committed_reads(self, conn: psycopg.Connection[Any]) -> bool:
        return conn.info.transaction_status == TransactionStatus.IDLE

    # -- writing -------------------------------------------------------------------------------

    def append(
        self,
        stream: str,
        expected_version: ExpectedVersion,
        events: Sequence[NewEvent],
        *,
        conn: psycopg.Connection[Any] | None = None,
        savepoint: bool = True,
    ) -> list[RecordedEvent]:
        """Append ``events`` to ``stream`` atomically and return them as recorded.

        Raises ``ConcurrencyError`` when the stream is not at ``expected_version`` and
        ``DuplicateEventError`` when an ``event_id`` is already stored; nothing is written then.
        With ``conn`` the caller's open transaction is used (and committed by the caller); the
        append is a savepoint of it, so the caller may go on after an error. ``savepoint=False``
        saves those two round trips for a caller that abandons its transaction on any error.
        """
        if not events:
            return []
        code = check_expected(expected_version)
        if conn is not None:
            if not savepoint:
                return self._append_in(conn, stream, expected_version, code, events)
            with conn.transaction():  # a savepoint inside the caller's transaction
                return self._append_in(conn, stream, expected_version, code, events)
        with self.pool.connection() as own:
            own.autocommit = True  # one statement = one transaction = one round trip
            try:
                return self._append_in(own, stream, expected_version, code, events)
            finally:
                own.autocommit = False

    def _append_in(
        self,
        conn: psycopg.Connection[Any],
        stream: str,
        expected: ExpectedVersion,
        code: int,
        events: Sequence[NewEvent],
    ) -> list[RecordedEvent]:
        try:
            return self._send_append(conn, stream, code, events).recorded()
        except psycopg.Error as exc:
            raise self.append_failure(exc, stream, expected) from None

    def append_queued(
        self, conn: psycopg.Connection[Any], stream: str, expected_version: int, events: Sequence[NewEvent]
    ) -> QueuedAppend:
        """Queue the append of ``events`` at exactly ``expected_version`` on ``conn``, which must be in
        pipeline mode inside a transaction, without waiting for its result: the statements queued
        after it and the COMMIT travel in the same round trip. Its versions are known at once
        (``QueuedAppend.predicted()``); its positions after the pipeline has synced
        (``QueuedAppend.recorded()``). A refused append fails the transaction, and the error is
        raised when the pipeline syncs: pass it to :meth:`append_failure`.
        """
        if not events:
            raise ValueError("nothing to append")
        return self._send_append(conn, stream, check_expected(expected_version), events)

    def append_pipelined(
        self,
        conn: psycopg.Connection[Any],
        stream: str,
        expected: int,
        events: Sequence[NewEvent],
        then: Callable[[list[RecordedEvent]], None],
    ) -> QueuedAppend:
        """Queue the append of ``events`` and whatever ``then(predicted events)`` writes in one
        pipeline: the caller's, if ``conn`` is in one (its sync, and any refusal, come when the
        caller's block ends), else one of its own, synced here (a refusal raised as
        ``ConcurrencyError`` or ``DuplicateEventError``; a read model's own, e.g. a unique key, as
        it is: the caller knows what it means)."""
        if conn.pgconn.pipeline_status != pq.PipelineStatus.OFF:
            queued = self.append_queued(conn, stream, expected, events)
            then(queued.predicted())
            return queued
        try:
            with conn.pipeline():
                queued = self.append_queued(conn, stream, expected, events)
                then(queued.predicted())
        except psycopg.Error as exc:
            if stream_moved(exc) or _duplicate_event(exc):
                raise self.append_failure(exc, stream, expected) from None
            raise
        return queued

    def _send_append(
        self, conn: psycopg.Connection[Any], stream: str, code: int, events: Sequence[NewEvent]
    ) -> QueuedAppend:
        params = (stream, code, json.dumps([e.to_dict() for e in events], separators=(",", ":")))
        query = self._query("append", self._append_sql, conn)
        return QueuedAppend(stream, code, events, conn.execute(query, params, prepare=True))

    def append_failure(self, exc: psycopg.Error, stream: str, expected: ExpectedVersion) -> Exception:
        """The exception an append refused with ``exc`` stands for: ``ConcurrencyError`` (with the
        stream's current version), ``DuplicateEventError``, or ``exc`` itself."""
        if isinstance(exc, pg_errors.UniqueViolation):
            if exc.diag.constraint_name == "events_event_id_key":
                return DuplicateEventError(str(exc.diag.message_detail))
            taken = _version_taken(exc)
            return ConcurrencyError(stream, expected, self.version(stream) if taken is None else taken)
        if exc.sqlstate == _WRONG_VERSION:
            return ConcurrencyError(stream, expected, int(exc.diag.message_detail or 0))
        return exc

    # -- reading -------------------------------------------------------------------------------

    @contextmanager
    def _reader(self, conn: psycopg.Connection[Any] | None) -> Iterator[psycopg.Connection[Any]]:
        if conn is not None:
            yield conn
        else:
            with self.pool.connection() as own:
                yield own

    def version(self, stream: str, *, conn: psycopg.Connection[Any] | None = None) -> int:
        """The stream's current version (0 for a stream with no events)."""
        query = sql.SQL("SELECT coalesce(max(version), 0) FROM {} WHERE stream = %s").format(self._table)
        with self._reader(conn) as c:
            row = c.execute(query, (stream,)).fetchone()
        return int(row[0]) if row else 0

    def read(
        self,
        stream: str,
        from_version: int = 1,
        to_version: int | None = None,
        *,
        conn: psycopg.Connection[Any] | None = None,
    ) -> list[RecordedEvent]:
        """The events of ``stream`` with ``from_version <= version <= to_version``, in order."""
        upper = to_version if to_version is not None else 2**31 - 1
        with self._reader(conn) as c:
            rows = c.execute(self._query("read", self._read_sql, c), (stream, from_version, upper)).fetchall()
        return [self.upcasters.upcast(_row_to_event(r)) for r in rows]

    def read_many(
        self, starts: Mapping[str, int], *, conn: psycopg.Connection[Any] | None = None
    ) -> dict[str, list[RecordedEvent]]:
        """The events of each stream of ``starts`` from its version there on, in order: one query
        for many streams (a sweep loading hundreds of matches). Streams without such events map
        to an empty list."""
        found: dict[str, list[RecordedEvent]] = {stream: [] for stream in starts}
        if not starts:
            return found
        query = sql.SQL(
            "SELECT " + ", ".join(f"e.{c.strip()}" for c in _COLUMNS.split(",")) + " FROM {} e "
            "JOIN unnest(%s::text[], %s::int[]) AS s(stream, start) ON e.stream = s.stream "
            "AND e.version >= s.start ORDER BY e.stream, e.version"
        ).format(self._table)
        with self._reader(conn) as c:
            rows = c.execute(query, (list(starts), list(starts.values()))).fetchall()
        for row in rows:
            event = self.upcasters.upcast(_row_to_event(row))
            found[event.stream].append(event)
        return found

    def read_all(
        self, from_position: int = 0, limit: int = 1000, *, conn: psycopg.Connection[Any] | None = None
    ) -> list[RecordedEvent]:
        """Up to ``limit`` events with ``position > from_position``, in position order.

        Safe to follow: only events below every still-open append are returned, so an event
        that commits later never has a position below one already returned.
        """
        with self._reader(conn) as c:
            row = c.execute(self._safe_sql).fetchone()
            safe = int(row[0]) if row else 0
            if safe <= from_position:
                return []
            rows = c.execute(self._read_all_sql, (from_position, safe, limit)).fetchall()
        return [self.upcasters.upcast(_row_to_event(r)) for r in rows]

    def iter_all(self, from_position: int = 0, batch: int = 5000) -> Iterator[RecordedEvent]:
        """Every event from ``from_position`` on, in position order, read in batches."""
        return in_batches(self.read_all, from_position, batch)

    def head_position(self, *, conn: psycopg.Connection[Any] | None = None) -> int:
        query = sql.SQL("SELECT coalesce(max(position), 0) FROM {}").format(self._table)
        with self._reader(conn) as c:
            row = c.execute(query).fetchone()
        return int(row[0]) if row else 0

    # -- snapshots -----------------------------------------------------------------------------

    def save_snapshot(
        self, stream: str, version: int, state: dict[str, Any], *, conn: psycopg.Connection[Any] | None = None
    ) -> None:
        """Keep ``state`` as the fold of ``stream`` up to ``version`` (newer snapshots win). With
        ``conn``: in its transaction (rolled back with it), and only if no other open transaction is
        writing this stream's snapshot (a transaction-scoped advisory lock, tried, never waited
        for: a command never blocks, nor deadlocks, on a snapshot; the next one takes it)."""
        query = sql.SQL(
            "INSERT INTO {} (stream, version, state) SELECT %s, %s, %s::jsonb "
            "WHERE pg_try_advisory_xact_lock(hashtext(%s), hashtext(%s)) "
            "ON CONFLICT (stream) DO UPDATE SET version = EXCLUDED.version, state = EXCLUDED.state, "
            "taken_at = now() WHERE {}.version < EXCLUDED.version"
        ).format(sql.Identifier(self.schema, "snapshots"), sql.Identifier("snapshots"))
        params = (stream, version, json.dumps(state), f"{self.schema}.snapshots", stream)
        if conn is not None:
            conn.execute(query, params)
            return
        with self.pool.connection() as own:
            own.execute(query, params)

    def load_snapshot(
        self, stream: str, *, conn: psycopg.Connection[Any] | None = None
    ) -> tuple[int, dict[str, Any]] | None:
        query = sql.SQL("SELECT version, state FROM {} WHERE stream = %s").format(
            sql.Identifier(self.schema, "snapshots")
        )
        with self._reader(conn) as c:
            row = c.execute(query, (stream,)).fetchone()
        return (int(row[0]), row[1]) if row else None

    def load_snapshots(
        self, streams: Sequence[str], *, conn: psycopg.Connection[Any] | None = None
    ) -> dict[str, tuple[int, dict[str, Any]]]:
        """The snapshot (version, state) of each of ``streams`` that has one: one query for many
        streams (a sweep loading hundreds of matches it has not cached)."""
        if not streams:
            return {}
        query = sql.SQL("SELECT stream, version, state FROM {} WHERE stream = ANY(%s::text[])").format(
            sql.Identifier(self.schema, "snapshots")
        )
        with self._reader(conn) as c:
            rows = c.execute(query, (list(streams),)).fetchall()
        return {str(r[0]): (int(r[1]), r[2]) for r in rows}


def stream_moved(exc: psycopg.Error) -> bool:
    """Whether a failed (e.g. queued, pipelined) append was refused because its stream was not at
    the expected version: the wrong-version error of ``append_events`` or a concurrent append that
    took the same version first."""
    if isinstance(exc, pg_errors.UniqueViolation):
        return exc.diag.constraint_name == "events_stream_version_key"
    return exc.sqlstate == _WRONG_VERSION


def _version_taken(exc: pg_errors.UniqueViolation) -> int | None:
    """The version a concurrent append took first (``Key (stream, version)=(s, 57) already exists.``):
    the stream is at least there. Read from the error, not from the stream: the caller still holds its
    connection, and a second one from a small pool (2 in a Celery child) waits the pool's 30 s out."""
    if exc.diag.constraint_name != "events_stream_version_key":
        return None
    found = _TAKEN.search(exc.diag.message_detail or "")
    return int(found.group(1)) if found else None


def _duplicate_event(exc: psycopg.Error) -> bool:
    return isinstance(exc, pg_errors.UniqueViolation) and exc.diag.constraint_name == "events_event_id_key"
