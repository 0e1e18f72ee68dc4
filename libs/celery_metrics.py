"""Prometheus metrics of the Celery worker (which tasks ran, how they ended, how long they took)
and of Celery beat (that it still ticks, and what it sent).

- ``arcana_celery_tasks_total{task, state}``: tasks finished, by name and final state (``SUCCESS``,
  ``FAILURE``, ``RETRY``, ...);
- ``arcana_celery_task_duration_seconds{task}``: how long each ran (the match service's sweep of
  overdue deadlines and matchmaking's pairing pass among them).

Tasks run in the worker's pool children, so the values live in prometheus_client's multiprocess
files (``PROMETHEUS_MULTIPROC_DIR``, set for the whole worker before it starts), and the worker's
main process serves every child's on ``ARCANA_METRICS_PORT`` once the pool is up (the Deployment:
9100; the monitoring component scrapes it). With either unset, nothing is served.

Beat, one process, serves on ``ARCANA_METRICS_PORT`` once it starts (``beat_init``), through
``libs.celery_liveness.HeartbeatScheduler`` (the Deployment's ``--scheduler``):

- ``arcana_celery_beat_last_tick_timestamp_seconds``: when it last looked for due entries (at
  least every 30 s: ``HeartbeatScheduler``), so a hung or absent beat shows;
- ``arcana_celery_beat_sent_total{entry, outcome}``: entries it sent to the broker (``sent``) or
  failed to (``failed``: the broker unreachable, say; beat logs it and tries at the next tick).
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from typing import Any

from celery.signals import beat_init, task_postrun, task_prerun, worker_init, worker_ready
from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    multiprocess,
    start_http_server,
)

from libs import config

MULTIPROC_ENV = config.PROMETHEUS_MULTIPROC_DIR.name
log = logging.getLogger(__name__)
if _folder := config.PROMETHEUS_MULTIPROC_DIR.get():
    # beat's unlabelled gauge writes its value file as it is made, here at import: before any
    # signal handler could make the folder
    os.makedirs(_folder, exist_ok=True)

TASKS = Counter("arcana_celery_tasks", "Celery tasks finished, by final state.", ["task", "state"])
DURATION = Histogram(
    "arcana_celery_task_duration_seconds",
    "How long a Celery task ran.",
    ["task"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
)
BEAT_TICK = Gauge(
    "arcana_celery_beat_last_tick_timestamp_seconds",
    "When Celery beat last looked for due entries.",
    multiprocess_mode="max",
)
BEAT_SENT = Counter(
    "arcana_celery_beat_sent", "Beat entries sent to the broker, by outcome.", ["entry", "outcome"]
)
_started: dict[str, float] = {}


def beat_ticked() -> None:
    BEAT_TICK.set_to_current_time()


def beat_sent(entry: str, sent: bool) -> None:
    BEAT_SENT.labels(entry, "sent" if sent else "failed").inc()


def _serve_beat(**_: Any) -> None:
    port = config.METRICS_PORT.get()
    if port is None:
        return
    registry = REGISTRY
    if folder := config.PROMETHEUS_MULTIPROC_DIR.get():
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=folder)
    start_http_server(port, registry=registry)
    log.info("celery beat metrics on port %s", port)


def _task_started(task_id: str, **_: Any) -> None:
    _started[task_id] = time.monotonic()


def _task_finished(task_id: str, task: Any, state: str | None = None, **_: Any) -> None:
    started = _started.pop(task_id, None)
    TASKS.labels(task.name, state or "UNKNOWN").inc()
    if started is not None:
        DURATION.labels(task.name).observe(time.monotonic() - started)


def _serve(**_: Any) -> None:
    folder, port = config.PROMETHEUS_MULTIPROC_DIR.get(), config.METRICS_PORT.get()
    if not (folder and port):
        return
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=folder)
    start_http_server(port, registry=registry)
    log.info("celery metrics on port %s", port)


def clear_previous_run(**_: Any) -> None:
    """In the worker's main process before its pool starts: remove the value files an earlier
    worker left (the folder outlives a container restart)."""
    folder, port = config.PROMETHEUS_MULTIPROC_DIR.get(), config.METRICS_PORT.get()
    if folder and port:  # only a worker that serves its metrics owns the folder
        Path(folder).mkdir(parents=True, exist_ok=True)
        for leftover in Path(folder).glob("*.db"):
            leftover.unlink(missing_ok=True)


def install() -> None:
    worker_init.connect(clear_previous_run, weak=False)
    task_prerun.connect(_task_started, weak=False)
    task_postrun.connect(_task_finished, weak=False)
    worker_ready.connect(_serve, weak=False)
    beat_init.connect(_serve_beat, weak=False)
