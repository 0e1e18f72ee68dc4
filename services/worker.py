"""The Celery worker and beat of all services: ``celery -A services.worker worker|beat``.

Each service (``libs.kit.service_names()``) with a ``tasks.py`` registers its tasks on
``libs.celeryapp.app`` and may export a ``BEAT_SCHEDULE`` dict (name -> Celery beat entry); they
are merged here, with the tasks every service gets once for all (``libs.maintenance.tasks``: the
purge policy of docs/operations.md).
"""

from __future__ import annotations

import importlib
from typing import Any

from libs.celeryapp import app
from libs.kit.registry import SERVICES_DIR, service_names

SHARED_TASK_MODULES = ("libs.maintenance.tasks",)


def _task_modules() -> list[Any]:
    shared = [importlib.import_module(name) for name in SHARED_TASK_MODULES]
    return shared + [
        importlib.import_module(f"services.{name}.tasks")
        for name in service_names()
        if (SERVICES_DIR / name / "tasks.py").is_file()
    ]


schedule: dict[str, Any] = {}
for _module in _task_modules():
    schedule.update(getattr(_module, "BEAT_SCHEDULE", {}))
app.conf.beat_schedule = schedule

__all__ = ["app"]
