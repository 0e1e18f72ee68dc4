"""Per-player rate limits of write endpoints (issue 17, finding 9), in the one error shape.

    @blp.route("/v1/decks", methods=["POST"])
    @require_player
    @limited(DECK_WRITES)           # before @idempotent: counted on a connection of its own
    @idempotent
    ...

A :class:`PlayerLimit` allows ``per_window`` requests of one ``action`` per player in a fixed
window of ``window_seconds`` (settings ``ARCANA_<NAME>_PER_WINDOW`` and
``ARCANA_<NAME>_WINDOW_SECONDS``, read when the request comes). Over it, the view is not run and
the answer is 429 ``too_many_requests`` with ``Retry-After`` (seconds until the window ends): add
``TooManyRequests: TOO_MANY_REQUESTS`` to the service's ``ErrorTable``. Counters live in the
schema's ``rate_limits`` table (``libs/web/migrations``); each count is its own short transaction
on a pooled connection returned before the view runs, so a refused request writes nothing else.
The purge policy deletes counters whose window ended (:func:`purge_rate_limits`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar, cast

import psycopg
from psycopg import sql
from psycopg_pool import ConnectionPool

from libs import clock, config
from libs.kit.errors import Problem
from libs.web.auth import current_player
from libs.web.context import service_context

F = TypeVar("F", bound=Callable[..., Any])


class TooManyRequests(Exception):
    """Over a per-player limit; retry after ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"retry after {retry_after} s")
        self.retry_after = retry_after


TOO_MANY_REQUESTS = Problem(
    429,
    "too_many_requests",
    "Too many requests of this kind; retry later.",
    headers=lambda e: {"Retry-After": str(e.retry_after)},
    rules=True,
)


@dataclass(frozen=True)
class PlayerLimit:
    """At most ``per_window`` requests of ``action`` per player per ``window_seconds``; ``setting``
    names the environment variables that override both (``ARCANA_<setting>_PER_WINDOW``, ...)."""

    action: str
    setting: str
    per_window: int
    window_seconds: int

    def current(self) -> tuple[int, int]:
        """(per_window, window_seconds) as configured now."""
        return (
            config.PLAYER_LIMIT_PER_WINDOW.get(self.setting, self.per_window),
            config.PLAYER_LIMIT_WINDOW_SECONDS.get(self.setting, self.window_seconds),
        )


def count_in_window(
    conn: psycopg.Connection[Any],
    schema: str,
    table: str,
    key: tuple[str, str],
    window_seconds: int,
    now: datetime,
) -> tuple[int, int]:
    """Count one attempt of ``key`` (the values of the primary key's two columns, e.g. scope and
    subject) in its fixed window of ``schema.table`` (columns in order: the key, ``window_start``,
    ``attempts``), starting a new window when the last one ended. Returns (attempts in the window
    including this one, seconds until the window ends)."""
    query = sql.SQL(
        """
        INSERT INTO {t} AS a VALUES (%(k0)s, %(k1)s, %(now)s, 1)
        ON CONFLICT ON CONSTRAINT {pk} DO UPDATE SET
            attempts = CASE WHEN a.window_start <= %(now)s - make_interval(secs => %(window)s)
                            THEN 1 ELSE a.attempts + 1 END,
            window_start = CASE WHEN a.window_start <= %(now)s - make_interval(secs => %(window)s)
                                THEN %(now)s ELSE a.window_start END
        RETURNING attempts,
                  greatest(1, ceil(extract(epoch FROM
                      window_start + make_interval(secs => %(window)s) - %(now)s)))::int
        """
    ).format(t=sql.Identifier(schema, table), pk=sql.Identifier(f"{table}_pkey"))
    params = {"k0": key[0], "k1": key[1], "window": window_seconds, "now": now}
    row = conn.execute(query, params).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


TABLE = "rate_limits"


def admit(pool: ConnectionPool, schema: str, limit: PlayerLimit, player: str) -> None:
    """Count one request of ``player`` for ``limit``; raises ``TooManyRequests`` over it."""
    per_window, window = limit.current()
    with pool.connection() as conn, conn.transaction():
        attempts, left = count_in_window(conn, schema, TABLE, (limit.action, player), window, clock.now())
    if attempts > per_window:
        raise TooManyRequests(left)


def limited(limit: PlayerLimit) -> Callable[[F], F]:
    """View decorator: the authenticated player's request counts against ``limit`` (429 over it)."""

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            ctx = service_context()
            assert ctx.schema, "@limited needs an app created with a schema"
            admit(ctx.pool, ctx.schema, limit, str(current_player()))
            return func(*args, **kwargs)

        return cast(F, wrapper)

    return decorate


def purge_rate_limits(pool: ConnectionPool, schema: str, now: datetime, older_than_seconds: int) -> int:
    """Delete the counters of ``schema`` whose window started more than ``older_than_seconds``
    before ``now`` (longer than any limit's window); returns how many."""
    query = sql.SQL("DELETE FROM {} WHERE window_start < %s - make_interval(secs => %s)").format(
        sql.Identifier(schema, TABLE)
    )
    with pool.connection() as conn:
        return conn.execute(query, (now, older_than_seconds)).rowcount
