"""Connection pools (psycopg 3 + psycopg_pool)."""

from __future__ import annotations

from psycopg.rows import tuple_row
from psycopg_pool import ConnectionPool


def make_pool(url: str, *, min_size: int = 1, max_size: int = 10, name: str = "arcana") -> ConnectionPool:
    """An open pool; connections are checked on borrow so a restarted server is survived."""
    pool = ConnectionPool(
        url,
        min_size=min_size,
        max_size=max_size,
        name=name,
        kwargs={"row_factory": tuple_row},
        check=ConnectionPool.check_connection,
        open=False,
    )
    pool.open(wait=True, timeout=30)
    return pool
