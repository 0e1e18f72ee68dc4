"""Celery tasks of the match service (registered on ``libs.celeryapp.app``; see services/worker.py).

- ``match.enforce_deadline(match_id)``: sent with ``eta`` = a mulligan/turn deadline; applies
  whatever is due then (timeouts, presence, forfeits), then schedules the match's deadline as it
  is now (senders skip a deadline while an earlier task of theirs is still to come).
- ``match.bot_turn(match_id)``: the practice bot plays while the match waits for it.
- ``match.sweep()``: every 2 s (beat): every running match with a deadline already past, a bot to
  move or a presence change due gets ``tick`` + ``bot_turn``, in batches; the worker also sends one
  as soon as PostgreSQL accepts after it is ready (``sweep_start.py``). This is what enforces deadlines
  that passed while workers were down, and what replaces lost tasks.
- ``match.tournament_sweep()``: every 2 s (beat): each tournament bracket with something due (bots at
  the fill time, default decks when a round's window closes, its fights' matches and results),
  stepped in a transaction of its own (``usecases/tournaments.py``).

Idempotency keys and the inbox are purged for every service by ``libs.maintenance.tasks``.
"""

from __future__ import annotations

from typing import Any

from celery.signals import worker_ready

from libs.celeryapp import app
from libs.kit.runtime import service_object
from services.match.scheduling import BOT_TASK, ENFORCE_TASK, SWEEP_TASK
from services.match.service import MatchService
from services.match.sweep_start import on_worker_ready

SWEEP_SECONDS = 2.0

TOURNAMENT_SWEEP_TASK = "match.tournament_sweep"

BEAT_SCHEDULE: dict[str, Any] = {
    "match-sweep": {"task": SWEEP_TASK, "schedule": SWEEP_SECONDS, "options": {"expires": 10}},
    "match-tournament-sweep": {
        "task": TOURNAMENT_SWEEP_TASK,
        "schedule": SWEEP_SECONDS,
        "options": {"expires": 10},
    },
}


worker_ready.connect(on_worker_ready, weak=False)  # the first sweep once PostgreSQL accepts


def service() -> MatchService:
    """This worker process's service (built on first use, after the fork)."""
    svc: MatchService = service_object("match")
    return svc


@app.task(name=ENFORCE_TASK, ignore_result=True)
def enforce_deadline(match_id: str) -> int:
    svc = service()
    applied = svc.system.tick(match_id)
    svc.system.follow_up(match_id)
    return applied


@app.task(name=BOT_TASK, ignore_result=True)
def bot_turn(match_id: str) -> int:
    return service().bot.bot_turn(match_id)


@app.task(name=SWEEP_TASK, ignore_result=True)
def sweep() -> int:
    return service().sweeper.sweep()


@app.task(name=TOURNAMENT_SWEEP_TASK, ignore_result=True)
def tournament_sweep() -> int:
    svc = service()
    return svc.tournaments.sweep(transaction=svc.tournaments.own_transaction)
