"""What a service's views reach through the app: its name, schema, settings and database pool."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import psycopg
from flask import current_app, g
from psycopg.pq import TransactionStatus
from psycopg_pool import ConnectionPool

from libs import config
from libs.config import Settings
from libs.db.pool import CONNECTION_KWARGS

POOL_TIMEOUT_SECONDS = config.DB_POOL_TIMEOUT.get()  # then 503, not a hang


def lazy_pool(url: str, *, max_size: int = 10, name: str = "arcana-web") -> ConnectionPool:
    """A pool that connects on first use (safe to build at import time, before gunicorn forks).

    Connections are not pinged on every checkout (that doubled the round trips of a cheap
    request); a connection broken by a database restart fails its request with a 503 and is
    discarded by the pool, which opens a fresh one.
    """
    return ConnectionPool(
        url,
        min_size=1,
        max_size=max_size,
        name=name,
        kwargs=dict(CONNECTION_KWARGS),  # UTC sessions
        timeout=POOL_TIMEOUT_SECONDS,
        open=False,
    )


@dataclass
class ServiceContext:
    service: str
    schema: str | None
    settings: Settings
    _pool: ConnectionPool | None = None
    sessions: Any = None  # a libs.web.auth.SessionCheck: tokens it reports revoked get 401
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def pool(self) -> ConnectionPool:
        """The database pool, opened on first use."""
        with self._lock:
            if self._pool is None:
                self._pool = lazy_pool(self.settings.database_url)
            if self._pool.closed:
                self._pool.open(wait=False)
            return self._pool


def service_context() -> ServiceContext:
    """The current app's :class:`ServiceContext` (inside a request or app context)."""
    ctx: ServiceContext = current_app.extensions["arcana"]
    return ctx


def in_idempotent_request() -> bool:
    """Whether an ``@idempotent`` view with a key is running: ``request_transaction`` then
    continues the transaction (and connection) of its idempotency record."""
    return g.get("idempotency_conn") is not None


@contextmanager
def request_transaction(*, pipelined: bool = False) -> Iterator[psycopg.Connection[Any]]:
    """A connection inside a transaction for this request's writes.

    When an ``@idempotent`` view is running, this is the idempotency record's connection and the
    block is a savepoint of its transaction, so the writes and the stored response commit
    together. Otherwise a pooled connection in a new transaction. Exceptions roll the block back.

    ``pipelined`` (no effect in an idempotent request): the new transaction runs in pipeline
    mode, so BEGIN travels with the first statement and COMMIT with the statements queued since
    the last fetched result: a block that reads one result (e.g. an append's) costs two round
    trips. The block must not catch a database error and go on (the transaction is abandoned);
    errors of queued statements are raised when the block ends, and nothing is committed then.
    """
    shared: psycopg.Connection[Any] | None = g.get("idempotency_conn")
    if shared is not None:
        with shared.transaction():
            yield shared
        return
    if not pipelined:
        with service_context().pool.connection() as conn, conn.transaction():
            yield conn
        return
    with service_context().pool.connection() as conn, _pipelined_transaction(conn):
        yield conn


@contextmanager
def _pipelined_transaction(conn: psycopg.Connection[Any]) -> Iterator[None]:
    # Explicit BEGIN/COMMIT on an autocommit connection: psycopg's implicit BEGIN would sync the
    # pipeline (a round trip of its own).
    #
    # A statement the server refused aborts the rest of the pipeline, and psycopg may then hold as
    # prepared a statement whose PREPARE the server skipped (its automatic preparation after
    # ``prepare_threshold`` uses): the connection's next use of it fails with "prepared statement
    # … does not exist". So a connection whose pipeline failed in the database is closed, and the
    # pool replaces it (under load, a 409 on a command's append made later requests fail with 500).
    conn.autocommit = True
    try:
        failed = True
        try:
            with conn.pipeline():
                conn.execute("BEGIN")
                yield
                conn.execute("COMMIT")
            failed = False
        except psycopg.Error:
            conn.close()
            raise
        finally:
            if failed and not conn.closed and conn.info.transaction_status != TransactionStatus.IDLE:
                conn.execute("ROLLBACK")
    finally:
        if not conn.closed:
            conn.autocommit = False
