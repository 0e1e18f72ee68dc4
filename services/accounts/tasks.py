"""Celery tasks of the accounts service (registered on ``libs.celeryapp.app``; see services/worker.py).

- ``accounts.purge_login_attempts()``: every 5 minutes (beat), deletes the log-in and registration
  counters whose window has ended (and whose delay is over), and the revoked tokens that have
  expired anyway. Nothing it deletes still limits anyone.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from psycopg_pool import ConnectionPool

from libs import clock
from libs.celeryapp import app
from libs.config import secret_from_env
from services.accounts import store
from services.accounts.handlers import LoginPolicy

PURGE_TASK = "accounts.purge_login_attempts"
PURGE_SECONDS = 300.0

BEAT_SCHEDULE: dict[str, Any] = {
    "accounts-purge-login-attempts": {
        "task": PURGE_TASK,
        "schedule": PURGE_SECONDS,
        "options": {"expires": 120},
    },
}

_pool: ConnectionPool | None = None
_lock = threading.Lock()


def purge_expired(pool: ConnectionPool, schema: str, policy: LoginPolicy) -> int:
    """Delete the counters past their window and the revoked tokens past their expiry; returns how
    many rows went."""
    windows = {
        "ip": policy.window_seconds,
        "username": policy.window_seconds,
        "pair": policy.window_seconds,
        "register_ip": policy.register_window_seconds,
    }
    now = clock.now()
    with pool.connection() as conn, conn.transaction():
        return store.purge_login_attempts(conn, schema, now, windows) + store.purge_revoked_tokens(
            conn, schema, now
        )


def _worker_pool() -> ConnectionPool:
    """This worker process's pool (opened on first use, after the fork)."""
    global _pool
    with _lock:
        if _pool is None:
            from libs.db import make_pool

            url = secret_from_env("DATABASE_URL")  # or DATABASE_URL_FILE
            if not url:
                raise RuntimeError("DATABASE_URL is not set")
            _pool = make_pool(url, min_size=1, max_size=2, name="accounts-tasks")
        return _pool


@app.task(name=PURGE_TASK, ignore_result=True)
def purge_login_attempts() -> int:
    return purge_expired(
        _worker_pool(), os.environ.get("ARCANA_ACCOUNTS_SCHEMA", "accounts"), LoginPolicy.from_env()
    )
