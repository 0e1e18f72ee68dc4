"""Celery tasks of the accounts service (registered on ``libs.celeryapp.app``; see services/worker.py).

- ``accounts.purge_login_attempts()``: every 5 minutes (beat), deletes the log-in and registration
  counters whose window has ended (and whose delay is over), and the revoked tokens that have
  expired anyway. Nothing it deletes still limits anyone.
"""

from __future__ import annotations

from typing import Any

from libs.celeryapp import app
from libs.kit.runtime import service_object

PURGE_TASK = "accounts.purge_login_attempts"
PURGE_SECONDS = 300.0

BEAT_SCHEDULE: dict[str, Any] = {
    "accounts-purge-login-attempts": {
        "task": PURGE_TASK,
        "schedule": PURGE_SECONDS,
        "options": {"expires": 120},
    },
}


@app.task(name=PURGE_TASK, ignore_result=True)
def purge_login_attempts() -> int:
    removed: int = service_object("accounts").purge_expired()
    return removed
