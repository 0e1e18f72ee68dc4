"""Liveness and JSON logs for Celery's worker and beat (the Kubernetes probes: docs/operations.md).

- the worker: a bootstep beats (``libs.bus.heartbeat``) from the worker's own timer every few
  seconds, so the file goes stale when the worker's event loop hangs;
- beat: ``HeartbeatScheduler`` (``celery beat --scheduler libs.celery_liveness:HeartbeatScheduler``)
  beats on every tick of the scheduler, and records the tick and each entry it sends as metrics
  (``libs.celery_metrics``);
- both log JSON lines (``libs.jsonlog``) unless ``LOG_FORMAT=text``.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Celery, bootsteps
from celery.beat import PersistentScheduler
from celery.signals import after_setup_logger, after_setup_task_logger

from libs import celery_metrics, config
from libs.bus import heartbeat
from libs.jsonlog import JsonFormatter

WORKER_BEAT_SECONDS = 5.0


class WorkerHeartbeat(bootsteps.StartStopStep):
    requires = {"celery.worker.components:Timer"}

    def __init__(self, parent: Any, **kwargs: Any) -> None:
        super().__init__(parent, **kwargs)
        self.entry: Any = None

    def start(self, parent: Any) -> None:
        heartbeat.beat("celery worker")
        self.entry = parent.timer.call_repeatedly(WORKER_BEAT_SECONDS, heartbeat.beat, ("celery worker",))

    def stop(self, parent: Any) -> None:
        if self.entry is not None:
            self.entry.cancel()


class HeartbeatScheduler(PersistentScheduler):
    def tick(self, *args: Any, **kwargs: Any) -> float:
        heartbeat.beat("celery beat")
        celery_metrics.beat_ticked()
        interval: float = super().tick(*args, **kwargs)
        return min(interval, heartbeat.STALE / 2)  # wake often enough to keep beating

    def apply_async(self, entry: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            result = super().apply_async(entry, *args, **kwargs)
        except Exception:
            celery_metrics.beat_sent(entry.name, sent=False)
            raise
        celery_metrics.beat_sent(entry.name, sent=True)
        return result


def _json_logs(logger: logging.Logger, **_: Any) -> None:
    if config.LOG_FORMAT.get() == "text":
        return
    for handler in logger.handlers:
        handler.setFormatter(JsonFormatter())


def install(app: Celery) -> None:
    app.steps["worker"].add(WorkerHeartbeat)
    after_setup_logger.connect(_json_logs, weak=False)
    after_setup_task_logger.connect(_json_logs, weak=False)
