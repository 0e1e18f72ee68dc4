"""The inbox of the idempotent consumers: which events each consumer applied, and its horizon.

A consumer applies an event in the transaction that inserts its inbox row ``(consumer, event_id)``
(``claim``). The inbox is purged by one policy (``libs/bus/purge.py``): rows of events that
occurred before the consumer's **horizon** are deleted, and ``claim`` treats every event older
than the horizon as already applied, so an old event delivered again after its row was purged
(a new, empty broker makes the relays publish everything again) is still not applied twice.

``claim`` reads the horizon row ``FOR SHARE``: a purge raising the horizon and deleting rows holds
that row's lock until it commits, so a delivery racing with it waits and then sees the new horizon
instead of slipping in between the delete and the commit. The horizon row exists before any purge
deletes a consumer's rows (``register``; the purge registers consumers it has not seen and leaves
their rows to its next run), so a delivery that started earlier cannot miss it.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import sql

from libs.eventstore import RecordedEvent

INBOX = "inbox"
HORIZONS = "inbox_horizons"


def claim_query(schema: str) -> sql.Composed:
    """The statement of :func:`claim` (prepared once by a consumer)."""
    return sql.SQL(
        "WITH h AS (SELECT horizon FROM {horizons} WHERE consumer = %(consumer)s FOR SHARE) "
        "INSERT INTO {inbox} (consumer, event_id, stream, type, topic, kafka_partition, kafka_offset, "
        "occurred_at) "
        "SELECT %(consumer)s, %(event_id)s, %(stream)s, %(type)s, %(topic)s, %(partition)s, %(offset)s, "
        "%(occurred_at)s "
        "WHERE NOT EXISTS (SELECT 1 FROM h WHERE h.horizon > %(occurred_at)s) "
        "ON CONFLICT (consumer, event_id) DO NOTHING"
    ).format(horizons=sql.Identifier(schema, HORIZONS), inbox=sql.Identifier(schema, INBOX))


def claim_params(
    consumer: str, event: RecordedEvent, topic: str = "", partition: int = -1, offset: int = -1
) -> dict[str, Any]:
    return {
        "consumer": consumer,
        "event_id": event.event_id,
        "stream": event.stream,
        "type": event.type,
        "topic": topic,
        "partition": partition,
        "offset": offset,
        "occurred_at": event.occurred_at,
    }


def claim(
    conn: psycopg.Connection[Any],
    schema: str,
    consumer: str,
    event: RecordedEvent,
    topic: str = "",
    partition: int = -1,
    offset: int = -1,
) -> bool:
    """Record ``event`` as applied by ``consumer`` in ``conn``'s transaction: True when the caller
    must apply it now, False when it was applied before or occurred before the horizon."""
    params = claim_params(consumer, event, topic, partition, offset)
    return conn.execute(claim_query(schema), params).rowcount == 1


def register(conn: psycopg.Connection[Any], schema: str, consumer: str) -> None:
    """Make sure ``consumer`` has a horizon row (``-infinity`` at first), before any purge."""
    conn.execute(
        sql.SQL("INSERT INTO {} (consumer) VALUES (%s) ON CONFLICT (consumer) DO NOTHING").format(
            sql.Identifier(schema, HORIZONS)
        ),
        (consumer,),
    )


def recorded(conn: psycopg.Connection[Any], schema: str, consumer: str, event_id: Any) -> bool:
    """Whether the inbox holds ``event_id`` for ``consumer``."""
    query = sql.SQL("SELECT 1 FROM {} WHERE consumer = %s AND event_id = %s").format(
        sql.Identifier(schema, INBOX)
    )
    return conn.execute(query, (consumer, event_id)).fetchone() is not None
