"""Connection pools (psycopg 3 + psycopg_pool), sized by the connection budget.

The budget (docs/operations.md "Connection budget"): each process holds ONE pool, shared by every
service it runs, and ``ARCANA_DB_POOL_MAX`` caps it; unset, each kind of process has the default
below. A Deployment's pods times their processes times this cap is what the component may hold.
"""

from __future__ import annotations

from typing import Any

from psycopg.rows import tuple_row
from psycopg_pool import ConnectionPool

from libs import config

POOL_MAX_ENV = config.DB_POOL_MAX.name

# The most connections one process of each kind holds when ARCANA_DB_POOL_MAX is unset.
WEB_WORKER_POOL_MAX = 10  # a gunicorn worker; `make run` serves all six services from it
RELAY_POOL_MAX = 2  # an outbox relay (its loop and the metrics scrape)
CONSUMERS_POOL_MAX = 4  # a service's consumers (one thread per subscription) or an operator tool
CELERY_CHILD_POOL_MAX = 2  # a Celery pool child: one task at a time, whatever services it touches


def pool_max(default: int) -> int:
    """``ARCANA_DB_POOL_MAX`` when it is set, else ``default`` (a positive whole number)."""
    found = config.DB_POOL_MAX.get()
    value = default if found is None else found
    if value < 1:
        raise ValueError(f"{POOL_MAX_ENV} must be at least 1, not {value}")
    return value


# Every pooled connection's session runs in UTC, whatever the server's default: a ``date`` or
# ``date_trunc`` of a timestamptz (a day of the daily log-in, of a quest) is then a UTC day.
CONNECTION_KWARGS: dict[str, Any] = {"row_factory": tuple_row, "options": "-c TimeZone=UTC"}


def make_pool(url: str, *, min_size: int = 1, max_size: int = 10, name: str = "arcana") -> ConnectionPool:
    """An open pool. Broken connections are dropped when returned and replaced in the background;
    connections are not pinged on every borrow (that would add a round trip to every request).
    With ``min_size`` 0 it connects on first use and closes connections idle for 10 minutes."""
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
