"""Connection pools (psycopg 3 + psycopg_pool)."""

from __future__ import annotations

from typing import Any

from psycopg.rows import tuple_row
from psycopg_pool import ConnectionPool

# Every pooled connection's session runs in UTC, whatever the server's default: a ``date`` or
# ``date_trunc`` of a timestamptz (a day of the daily log-in, of a quest) is then a UTC day.
CONNECTION_KWARGS: dict[str, Any] = {"row_factory": tuple_row, "options": "-c TimeZone=UTC"}


def make_pool(url: str, *, min_size: int = 1, max_size: int = 10, name: str = "arcana") -> ConnectionPool:
    """An open pool. Broken connections are dropped when returned and replaced in the background;
    connections are not pinged on every borrow (that would add a round trip to every request)."""
    pool = ConnectionPool(
        url,
        min_size=min_size,
        max_size=max_size,
        name=name,
        kwargs=dict(CONNECTION_KWARGS),
        open=False,
    )
    pool.open(wait=True, timeout=30)
    return pool
