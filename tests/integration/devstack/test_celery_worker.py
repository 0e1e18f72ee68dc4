"""The connection budget of a Celery worker (docs/operations.md "Connection budget"), on a real
worker started with the command line `make run` uses, real PostgreSQL: each pool child holds ONE
pool, shared by every service its tasks touch and opened on its first task, of at most
``CELERY_CHILD_POOL_MAX`` connections (``ARCANA_DB_POOL_MAX`` when set), where it used to open a
pool per service (the hourly purge touches all six: six pools per child).

The worker runs the purge, which builds all six services, several times over its two children; its
connections are counted in ``pg_stat_activity`` by the application name its processes carry
(``PGAPPNAME``). Then the pool sizes follow ``ARCANA_DB_POOL_MAX`` and the defaults per process.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from celery.signals import worker_process_init

from libs.celeryapp import make_celery
from libs.config import PROJECT_ROOT
from libs.db import CELERY_CHILD_POOL_MAX, CONSUMERS_POOL_MAX, WEB_WORKER_POOL_MAX, pool_max
from libs.db.migrate_all import migrate_all
from libs.db.pool import POOL_MAX_ENV
from libs.devstack import processes
from libs.kit import runtime
from libs.maintenance.tasks import PURGE_TASK
from services.wsgi import build_app
from tests.e2e.stack import create_database
from tests.integration.conftest import settings_for_tests

CHILDREN = 2  # `make run`'s worker (processes.celery_worker)
PURGES = 6


@pytest.fixture
def worker(postgres_url: str, tmp_path: Path) -> Iterator[tuple[str, str, Path]]:
    """A Celery worker on a migrated database of its own: (database URL, application name, log)."""
    database = create_database(postgres_url, prefix="budget")
    migrate_all(database)
    name = f"budget-{uuid.uuid4().hex[:8]}"
    data, log = tmp_path / "data", tmp_path / "worker.log"
    env = processes.base_env(database, "127.0.0.1:9", None, data)  # the purge needs no Kafka
    env.pop("CELERY_BROKER_URL", None)
    env.pop(POOL_MAX_ENV, None)
    component = processes.celery_worker(CHILDREN)
    with log.open("ab") as out:
        proc = subprocess.Popen(
            component.argv,
            env={**env, "PGAPPNAME": name},
            cwd=PROJECT_ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield database, name, data
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
    worker: tuple[str, str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database, application, data = worker
    log = tmp_path / "worker.log"
    monkeypatch.setenv("ARCANA_DATA_DIR", str(data))
    monkeypatch.delenv("CELERY_BROKER_URL", raising=False)
    sender = make_celery()  # the worker's filesystem queue
    for _ in range(PURGES):
        sender.send_task(PURGE_TASK)
    deadline = time.monotonic() + 120
    while log.read_text(errors="replace").count("succeeded") < PURGES:
        assert time.monotonic() < deadline, log.read_text(errors="replace")[-3000:]
        time.sleep(0.2)
    purged = log.read_text(errors="replace")
    assert "purge of service" not in purged, purged[-3000:]  # every service's schema was purged
    held = connections(database, application)
    assert 1 <= held <= CHILDREN * CELERY_CHILD_POOL_MAX, held


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
