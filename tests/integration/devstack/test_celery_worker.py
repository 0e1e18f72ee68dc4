"""A real Celery worker, started with the command line `make run` uses, on real PostgreSQL, runs the
hourly purge (which touches all six services) several times over its two children. Then:

- its connection budget (docs/operations.md "Connection budget"): each pool child holds ONE pool,
  shared by every service its tasks touch and opened on its first task, of at most
  ``CELERY_CHILD_POOL_MAX`` connections, where it used to open a pool per service (six per child);
  counted in ``pg_stat_activity`` by the application name its processes carry (``PGAPPNAME``);
- its metrics (``libs/celery_metrics.py``): the main process serves every child's tasks by state
  and their durations on ``ARCANA_METRICS_PORT``.

And pool sizes follow ``ARCANA_DB_POOL_MAX`` and the defaults of each kind of process.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import psycopg
import pytest
import requests
from celery.signals import worker_process_init
from prometheus_client.parser import text_string_to_metric_families

from harness.stack import create_database
from harness.waiting import wait_until
from libs.celeryapp import make_celery
from libs.config import PROJECT_ROOT
from libs.db import CELERY_CHILD_POOL_MAX, CONSUMERS_POOL_MAX, WEB_WORKER_POOL_MAX, pool_max
from libs.db.migrate_all import migrate_all
from libs.db.pool import POOL_MAX_ENV
from libs.devstack import processes
from libs.devstack.ports import free_port
from libs.kit import runtime
from libs.maintenance.tasks import PURGE_TASK
from services.wsgi import build_app
from tests.integration.conftest import settings_for_tests

CHILDREN = 2  # `make run`'s worker (processes.celery_worker)
PURGES = 6


@dataclass(frozen=True)
class Worker:
    database: str
    application: str  # PGAPPNAME of its processes
    metrics: str  # its metrics URL
    log: str  # what it logged while running the purges


@pytest.fixture(scope="module")
def worker(postgres_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Worker]:
    """A Celery worker on a migrated database of its own, after it ran ``PURGES`` purges."""
    root = tmp_path_factory.mktemp("celery-worker")
    database = create_database(postgres_url, prefix="budget")
    migrate_all(database)
    name, port = f"budget-{uuid.uuid4().hex[:8]}", free_port()
    data, log = root / "data", root / "worker.log"
    env = processes.base_env(database, "127.0.0.1:9", None, data)  # the purge needs no Kafka
    env.pop("CELERY_BROKER_URL", None)
    env.pop(POOL_MAX_ENV, None)
    env.update(PGAPPNAME=name, PROMETHEUS_MULTIPROC_DIR=str(root / "metrics"), ARCANA_METRICS_PORT=str(port))
    with log.open("ab") as out:
        proc = subprocess.Popen(
            processes.celery_worker(CHILDREN).argv,
            env=env,
            cwd=PROJECT_ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("ARCANA_DATA_DIR", str(data))
            patch.delenv("CELERY_BROKER_URL", raising=False)
            sender = make_celery()  # the worker's filesystem queue
        for _ in range(PURGES):
            sender.send_task(PURGE_TASK)
        deadline = time.monotonic() + 120
        while log.read_text(errors="replace").count("succeeded") < PURGES:
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text(errors="replace")[
                -3000:
            ]
            time.sleep(0.2)
        yield Worker(database, name, f"http://127.0.0.1:{port}/metrics", log.read_text(errors="replace"))
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def connections(database: str, application: str) -> int:
    with psycopg.connect(database) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", (application,)
        ).fetchone()
    return int(row[0]) if row else 0


def test_a_celery_worker_holds_one_small_pool_per_child_whatever_services_its_tasks_touch(
    worker: Worker,
) -> None:
    assert "purge of service" not in worker.log, worker.log[-3000:]  # every schema was purged
    held = connections(worker.database, worker.application)
    assert 1 <= held <= CHILDREN * CELERY_CHILD_POOL_MAX, held


def _samples(worker: Worker) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(requests.get(worker.metrics, timeout=10).text)
        for s in family.samples
    }


def test_a_celery_worker_serves_its_tasks_by_state_and_their_durations(worker: Worker) -> None:
    task = ("task", PURGE_TASK)
    succeeded = ("arcana_celery_tasks_total", (("state", "SUCCESS"), task))
    # A child counts its task once it has finished, which may be a moment after the worker logged
    # "succeeded" (a loaded run read 5 of 6 at once): wait for the count, then hold it to exactly 6.
    wait_until(lambda: _samples(worker).get(succeeded, 0) >= PURGES, 30, "every purge counted")
    samples = _samples(worker)
    assert samples[succeeded] == PURGES
    assert samples[("arcana_celery_task_duration_seconds_count", (task,))] == PURGES
    assert samples[("arcana_celery_task_duration_seconds_sum", (task,))] > 0


def test_pool_sizes_follow_arcana_db_pool_max(postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(POOL_MAX_ENV, raising=False)
    assert (pool_max(WEB_WORKER_POOL_MAX), pool_max(CELERY_CHILD_POOL_MAX)) == (10, 2)
    monkeypatch.setenv(POOL_MAX_ENV, "3")
    assert pool_max(WEB_WORKER_POOL_MAX) == pool_max(CELERY_CHILD_POOL_MAX) == 3
    gateway = build_app(settings_for_tests(postgres_url)).fallback
    assert gateway.extensions["arcana"].pool.max_size == 3  # type: ignore[attr-defined]
    monkeypatch.setenv(POOL_MAX_ENV, "0")
    with pytest.raises(ValueError, match=POOL_MAX_ENV):
        pool_max(CONSUMERS_POOL_MAX)


def test_a_process_builds_every_service_on_one_pool_of_its_kind(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runtime, "_built", {})
    monkeypatch.setattr(runtime, "_pool", None)
    monkeypatch.setattr(runtime, "_pool_default", CONSUMERS_POOL_MAX)
    monkeypatch.setenv("DATABASE_URL", postgres_url)
    monkeypatch.delenv(POOL_MAX_ENV, raising=False)
    import services.worker  # noqa: F401  (connects the signal below)

    worker_process_init.send(sender=None)  # what Celery sends in each pool child after the fork
    try:
        pools = {id(runtime.built(name)[0].pool) for name in ("accounts", "economy", "ratings")}
        pool = runtime.built("accounts")[0].pool
        assert len(pools) == 1 and pool.max_size == CELERY_CHILD_POOL_MAX
        assert pool.get_stats()["pool_size"] == 0  # nothing opened before a task needs it
    finally:
        if runtime._pool is not None:
            runtime._pool.close()
