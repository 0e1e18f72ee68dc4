"""The inbox purge: delete old inbox rows without ever letting an old event apply twice.

The inbox (``libs/bus/inbox.py``) remembers every event a consumer applied. It cannot keep them
forever, and it cannot simply forget old ones either: after the broker is replaced by an empty
one the relays publish EVERYTHING again, and an event whose inbox row was deleted would be
applied a second time. So each consumer has a **horizon** (``<schema>.inbox_horizons``):

- ``purge_inbox(pool, schema, horizon)`` moves every consumer's horizon forward to ``horizon``
  (never back) and, in the same transaction, deletes its inbox rows of events that *occurred*
  (envelope ``occurred_at``) before it;
- the consumer treats any event that occurred before its horizon as already applied (the inbox
  claim checks it in the same statement), whether or not its row is still there.

The consequence, and the rule an operator must keep: an event older than the horizon that was
NEVER applied is skipped too. The horizon's age (30 days by default, ``libs/maintenance``) must
therefore exceed the longest time an event can wait before its consumer applies it: a consumer
outage, the relay's lag, a dead letter waiting for its retry. See docs/operations.md.

A consumer whose horizon row does not exist yet (one that has not run since this table exists)
gets one now and has its rows purged from the next run on, so that no delivery that started before
the row existed can slip between a delete and its commit (see ``libs/bus/inbox.py``).
"""

from __future__ import annotations

from datetime import datetime

from psycopg import sql
from psycopg_pool import ConnectionPool

from libs.bus.inbox import HORIZONS, INBOX


def purge_inbox(pool: ConnectionPool, schema: str, horizon: datetime) -> dict[str, int]:
    """Move every consumer's horizon in ``schema`` up to ``horizon`` and delete the inbox rows of
    events that occurred before it; returns the rows deleted per consumer (consumers registered
    now are purged from the next run on and are not in the result). Raises psycopg errors."""
    newcomers = _register_unknown_consumers(pool, schema)
    with pool.connection() as conn:
        consumers = [
            row[0] for row in conn.execute(sql.SQL("SELECT consumer FROM {}").format(_horizons(schema)))
        ]
    return {
        consumer: _purge_consumer(pool, schema, consumer, horizon)
        for consumer in sorted(consumers)
        if consumer not in newcomers
    }


def horizons(pool: ConnectionPool, schema: str) -> dict[str, datetime | None]:
    """Each consumer's recorded horizon (None before its first purge)."""
    query = sql.SQL("SELECT consumer, NULLIF(horizon, '-infinity') FROM {}").format(_horizons(schema))
    with pool.connection() as conn:
        rows = conn.execute(query).fetchall()
    return {row[0]: row[1] for row in rows}


def _horizons(schema: str) -> sql.Identifier:
    return sql.Identifier(schema, HORIZONS)


def _register_unknown_consumers(pool: ConnectionPool, schema: str) -> set[str]:
    """Horizon rows for consumers that have inbox rows but none yet; returns their names."""
    query = sql.SQL(
        "INSERT INTO {h} (consumer) SELECT DISTINCT consumer FROM {i} "
        "ON CONFLICT (consumer) DO NOTHING RETURNING consumer"
    ).format(h=_horizons(schema), i=sql.Identifier(schema, INBOX))
    with pool.connection() as conn:
        return {row[0] for row in conn.execute(query).fetchall()}


def _purge_consumer(pool: ConnectionPool, schema: str, consumer: str, horizon: datetime) -> int:
    """One transaction: raise the horizon (its row stays locked to the commit), then delete."""
    raise_horizon = sql.SQL(
        "UPDATE {} SET horizon = GREATEST(horizon, %s), updated_at = now() "
        "WHERE consumer = %s RETURNING horizon"
    ).format(_horizons(schema))
    delete = sql.SQL("DELETE FROM {} WHERE consumer = %s AND occurred_at < %s").format(
        sql.Identifier(schema, INBOX)
    )
    with pool.connection() as conn, conn.transaction():
        row = conn.execute(raise_horizon, (horizon, consumer)).fetchone()
        if row is None:
            return 0
        return conn.execute(delete, (consumer, row[0])).rowcount
