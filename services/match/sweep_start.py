"""The first sweep as soon as PostgreSQL accepts connections: after a crash of everything the Celery
worker often boots before PostgreSQL has finished its recovery, and the beat's next tick (every
2 s, once the beat is up too) would then be the first to look at the overdue matches. The worker
polls the database every ``POLL_SECONDS`` from the moment it is ready and sends one sweep at once
when it answers; the beat's sweeps follow as before."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import psycopg

from services.match.scheduling import SWEEP_TASK

log = logging.getLogger(__name__)

POLL_SECONDS = 0.2
GIVE_UP_SECONDS = 300.0  # then the beat's sweeps are all there is


def sweep_when_database_accepts(
    url: str, send: Callable[[str], Any], give_up: float = GIVE_UP_SECONDS
) -> bool:
    """Wait until ``url`` accepts a connection, then ``send(SWEEP_TASK)``; False when it never did
    within ``give_up`` seconds."""
    deadline = time.monotonic() + give_up
    while True:
        try:
            psycopg.connect(url, connect_timeout=2).close()
            break
        except psycopg.Error:
            if time.monotonic() > deadline:
                return False
            time.sleep(POLL_SECONDS)
    try:
        send(SWEEP_TASK)
    except Exception:
        log.warning("could not send the first sweep; the beat's will follow", exc_info=True)
        return False
    return True


def on_worker_ready(**_: Any) -> None:
    """Celery's ``worker_ready``: look for the database in a thread of the worker's main process."""
    from libs import config
    from libs.celeryapp import app

    url = config.load().database_url
    threading.Thread(
        target=sweep_when_database_accepts, args=(url, app.send_task), name="match-first-sweep", daemon=True
    ).start()
