"""Celery tasks of the matchmaking service (registered on ``libs.celeryapp.app``).

- ``matchmaking.pair()``: every second (beat): cancels tickets not polled for 30 s, then pairs the
  waiting tickets and requests their matches. Safe with any number of workers: a pass holds a
  transaction-scoped advisory lock (another worker's pass at the same moment does nothing) and
  appends every pairing at the ticket versions it read.
"""

from __future__ import annotations

from typing import Any

from libs.celeryapp import app
from libs.kit.runtime import service_object
from services.matchmaking.service import MatchmakingService

PAIR_TASK = "matchmaking.pair"
PAIR_SECONDS = 1.0

BEAT_SCHEDULE: dict[str, Any] = {
    "matchmaking-pair": {
        "task": PAIR_TASK,
        "schedule": PAIR_SECONDS,
        "options": {"expires": 2 * PAIR_SECONDS},
    },
}


def service() -> MatchmakingService:
    """This worker process's service (built on first use, after the fork)."""
    svc: MatchmakingService = service_object("matchmaking")
    return svc


@app.task(name=PAIR_TASK, ignore_result=True)
def pair() -> int:
    """One pairing pass; returns the number of pairs made."""
    return service().pair().pairs
