"""A small read model for the projector tests: per stream, how many events and the sum of ``n``.

``python -m libs.bus.rebuild --projection tests.integration.bus.sample_projection:stream_totals``
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import sql

from libs.bus import Projection
from libs.eventstore import RecordedEvent

TABLE = "stream_totals"


def create_tables(conn: psycopg.Connection[Any], schema: str) -> None:
    conn.execute(
        sql.SQL(
            "CREATE TABLE IF NOT EXISTS {} (stream TEXT PRIMARY KEY, events INT NOT NULL, "
            "last_version INT NOT NULL, total BIGINT NOT NULL)"
        ).format(sql.Identifier(schema, TABLE))
    )


def stream_totals(schema: str) -> Projection:
    upsert = sql.SQL(
        "INSERT INTO {t} (stream, events, last_version, total) VALUES (%s, 1, %s, %s) "
        "ON CONFLICT (stream) DO UPDATE SET events = {t}.events + 1, "
        "last_version = EXCLUDED.last_version, total = {t}.total + EXCLUDED.total"
    ).format(t=sql.Identifier(schema, TABLE))

    def handle(event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
        conn.execute(upsert, (event.stream, event.version, int(event.data["n"])))

    return Projection(name="stream_totals", tables=(TABLE,), handler=handle)


def read_model(conn: psycopg.Connection[Any], schema: str) -> list[tuple[Any, ...]]:
    query = sql.SQL("SELECT stream, events, last_version, total FROM {} ORDER BY stream")
    return conn.execute(query.format(sql.Identifier(schema, TABLE))).fetchall()


def ignore(event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    """A consumer handler with no read model: only the inbox records what was consumed."""
