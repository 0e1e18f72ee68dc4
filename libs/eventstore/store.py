"""The PostgreSQL event store of one service (one schema).

Ordering technique. ``position`` is assigned while holding a transaction-scoped advisory lock on
the schema's event table, as ``max(position) + n``, and the lock is held until the appending
transaction ends. Appends of one service therefore commit one after another, in position order:
a reader following ``position`` can never pass an event that commits later with a lower position,
and positions are gap-free (a rolled-back append frees its positions for the next one). This is the
eventsourcing library's table-lock technique, narrowed to an advisory lock so readers are never
blocked. The price is that one service's appends are serialised (measured by
``make bench-eventstore``); the ``(stream, version)`` unique key still backs the version check.

Callers that must write their own tables atomically with events pass their open connection
(``conn=``) and own the transaction; they should append last, since the lock is held to the end.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Final

import psycopg
from psycopg import errors as pg_errors
from psycopg import sql
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


def _condition(expected: ExpectedVersion) -> sql.Composable:
    if expected == Expect.ANY:
        return sql.SQL("TRUE")
    if expected == Expect.STREAM_EXISTS:
        return sql.SQL("head.v > 0")
    if isinstance(expected, int) and expected >= 0:
        return sql.SQL("head.v = {}").format(sql.Literal(expected))
    raise ValueError(
        f"expected version must be an int >= 0, Expect.ANY or Expect.STREAM_EXISTS: {expected!r}"
    )


def _row_to_event(row: tuple[Any, ...]) -> RecordedEvent:
    return RecordedEvent(*row)


class EventStore:
    """Append to and read from the ``events`` table of ``schema``."""

    def __init__(self, pool: ConnectionPool, schema: str, upcasters: Upcasters | None = None) -> None:
        self.pool = pool
        self.schema = schema
        self.upcasters = upcasters or Upcasters()
        table = sql.Identifier(schema, "events")
        self._table = table
        self._lock_key = f"arcana.events.{schema}"
        self._select = sql.SQL("SELECT " + _COLUMNS + " FROM {} ").format(table)
        self._insert_cache: dict[str, sql.Composed] = {}

    # -- writing -------------------------------------------------------------------------------

    def append(
        self,
        stream: str,
        expected_version: ExpectedVersion,
        events: Sequence[NewEvent],
        *,
        conn: psycopg.Connection[Any] | None = None,
    ) -> list[RecordedEvent]:
        """Append ``events`` to ``stream`` atomically and return them as recorded.

        Raises ``ConcurrencyError`` when the stream is not at ``expected_version`` and
        ``DuplicateEventError`` when an ``event_id`` is already stored; nothing is written then.
        With ``conn`` the caller's open transaction is used (and committed by the caller).
        """
        if not events:
            return []
        if conn is not None:
            return self._append_in(conn, stream, expected_version, events)
        with self.pool.connection() as own, own.transaction():
            return self._append_in(own, stream, expected_version, events)

    def _append_in(
        self,
        conn: psycopg.Connection[Any],
        stream: str,
        expected: ExpectedVersion,
        events: Sequence[NewEvent],
    ) -> list[RecordedEvent]:
        params = {
            "lock": self._lock_key,
            "stream": stream,
            "ids": [e.event_id for e in events],
            "types": [e.type for e in events],
            "svs": [e.schema_version for e in events],
            "ats": [e.occurred_at for e in events],
            "corr": [e.correlation_id for e in events],
            "caus": [e.causation_id for e in events],
            "data": [json.dumps(e.data, separators=(",", ":")) for e in events],
        }
        try:
            with conn.transaction():  # a savepoint when the caller holds a transaction
                conn.execute("SELECT pg_advisory_xact_lock(hashtext(%(lock)s))", params)
                rows = conn.execute(self._insert_sql(expected), params).fetchall()
        except pg_errors.UniqueViolation as exc:
            if exc.diag.constraint_name == "events_event_id_key":
                raise DuplicateEventError(str(exc.diag.message_detail)) from None
            raise ConcurrencyError(stream, expected, self.version(stream, conn=conn)) from None
        if len(rows) != len(events):
            raise ConcurrencyError(stream, expected, self.version(stream, conn=conn))
        return [
            RecordedEvent(
                e.event_id,
                stream,
                version,
                position,
                e.type,
                e.schema_version,
                e.occurred_at,
                e.correlation_id,
                e.causation_id,
                e.data,
            )
            for e, (position, version) in zip(events, rows, strict=True)
        ]

    def _insert_sql(self, expected: ExpectedVersion) -> sql.Composed:
        key = str(expected)
        cached = self._insert_cache.get(key)
        if cached is None:
            cached = sql.SQL(
                """
                WITH head AS (
                    SELECT coalesce((SELECT max(version) FROM {t} WHERE stream = %(stream)s), 0) AS v,
                           coalesce((SELECT max(position) FROM {t}), 0) AS p
                )
                INSERT INTO {t} (position, event_id, stream, version, type, schema_version,
                                 occurred_at, correlation_id, causation_id, data)
                SELECT head.p + e.n, e.event_id, %(stream)s, head.v + e.n, e.type, e.sv,
                       e.at, e.corr, e.caus, e.data::jsonb
                FROM head,
                     unnest(%(ids)s::uuid[], %(types)s::text[], %(svs)s::int[], %(ats)s::timestamptz[],
                            %(corr)s::uuid[], %(caus)s::uuid[], %(data)s::text[])
                         WITH ORDINALITY AS e(event_id, type, sv, at, corr, caus, data, n)
                WHERE {cond}
                ORDER BY e.n
                RETURNING position, version
                """
            ).format(t=self._table, cond=_condition(expected))
            self._insert_cache[key] = cached
        return cached

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
        query = self._select + sql.SQL(
            "WHERE stream = %s AND version >= %s AND version <= %s ORDER BY version"
        )
        upper = to_version if to_version is not None else 2**31 - 1
        with self._reader(conn) as c:
            rows = c.execute(query, (stream, from_version, upper)).fetchall()
        return [self.upcasters.upcast(_row_to_event(r)) for r in rows]

    def read_all(
        self, from_position: int = 0, limit: int = 1000, *, conn: psycopg.Connection[Any] | None = None
    ) -> list[RecordedEvent]:
        """Up to ``limit`` events with ``position > from_position``, in position order.

        Safe to follow: an event appended later never gets a position below one already returned.
        """
        query = self._select + sql.SQL("WHERE position > %s ORDER BY position LIMIT %s")
        with self._reader(conn) as c:
            rows = c.execute(query, (from_position, limit)).fetchall()
        return [self.upcasters.upcast(_row_to_event(r)) for r in rows]

    def iter_all(self, from_position: int = 0, batch: int = 5000) -> Iterator[RecordedEvent]:
        """Every event from ``from_position`` on, in position order, read in batches."""
        position = from_position
        while True:
            events = self.read_all(position, batch)
            yield from events
            if len(events) < batch:
                return
            position = events[-1].position

    def head_position(self, *, conn: psycopg.Connection[Any] | None = None) -> int:
        query = sql.SQL("SELECT coalesce(max(position), 0) FROM {}").format(self._table)
        with self._reader(conn) as c:
            row = c.execute(query).fetchone()
        return int(row[0]) if row else 0

    # -- snapshots -----------------------------------------------------------------------------

    def save_snapshot(self, stream: str, version: int, state: dict[str, Any]) -> None:
        """Keep ``state`` as the fold of ``stream`` up to ``version`` (newer snapshots win)."""
        query = sql.SQL(
            "INSERT INTO {} (stream, version, state) VALUES (%s, %s, %s::jsonb) "
            "ON CONFLICT (stream) DO UPDATE SET version = EXCLUDED.version, state = EXCLUDED.state, "
            "taken_at = now() WHERE {}.version < EXCLUDED.version"
        ).format(sql.Identifier(self.schema, "snapshots"), sql.Identifier("snapshots"))
        with self.pool.connection() as conn:
            conn.execute(query, (stream, version, json.dumps(state)))

    def load_snapshot(self, stream: str) -> tuple[int, dict[str, Any]] | None:
        query = sql.SQL("SELECT version, state FROM {} WHERE stream = %s").format(
            sql.Identifier(self.schema, "snapshots")
        )
        with self.pool.connection() as conn:
            row = conn.execute(query, (stream,)).fetchone()
        return (int(row[0]), row[1]) if row else None
