"""The Celery worker and beat of all services: ``celery -A services.worker worker|beat``.

Each service with a ``tasks.py`` registers its tasks on ``libs.celeryapp.app`` and may export a
``BEAT_SCHEDULE`` dict (name -> Celery beat entry); they are merged here.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

import services
from libs.celeryapp import app


def _task_modules() -> list[Any]:
    modules = []
    for info in pkgutil.iter_modules(services.__path__):
        if not info.ispkg:
            continue
        try:
            modules.append(importlib.import_module(f"services.{info.name}.tasks"))
        except ModuleNotFoundError as exc:
            if exc.name != f"services.{info.name}.tasks":
                raise
    return modules


schedule: dict[str, Any] = {}
for _module in _task_modules():
    schedule.update(getattr(_module, "BEAT_SCHEDULE", {}))
app.conf.beat_schedule = schedule

__all__ = ["app"]
