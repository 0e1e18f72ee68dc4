"""The Celery worker and beat of all services: ``celery -A services.worker worker|beat``.

Each service (``libs.kit.service_names()``) with a ``tasks.py`` registers its tasks on
``libs.celeryapp.app`` and may export a ``BEAT_SCHEDULE`` dict (name -> Celery beat entry); they
are merged here, with the tasks every service gets once for all (``libs.maintenance.tasks``: the
purge policy of docs/operations.md).

Connection budget: each pool child runs one task at a time, so its one pool (shared by every
service its tasks touch, opened on first use: ``libs.kit.runtime.process_pool``) holds at most
``CELERY_CHILD_POOL_MAX`` connections unless ``ARCANA_DB_POOL_MAX`` says otherwise.
"""

from __future__ import annotations

import importlib
from typing import Any

from celery.signals import worker_process_init

from libs.celeryapp import app
from libs.db import CELERY_CHILD_POOL_MAX
from libs.kit import runtime
from libs.kit.registry import SERVICES_DIR, service_names

SHARED_TASK_MODULES = ("libs.maintenance.tasks",)


def _task_modules() -> list[Any]:
    shared = [importlib.import_module(name) for name in SHARED_TASK_MODULES]
    return shared + [
        importlib.import_module(f"services.{name}.tasks")
        for name in service_names()
        if (SERVICES_DIR / name / "tasks.py").is_file()
    ]


@worker_process_init.connect
def _small_pool(**_: Any) -> None:
    runtime.limit_pool(CELERY_CHILD_POOL_MAX)


schedule: dict[str, Any] = {}
for _module in _task_modules():
    schedule.update(getattr(_module, "BEAT_SCHEDULE", {}))
app.conf.beat_schedule = schedule

__all__ = ["app"]
