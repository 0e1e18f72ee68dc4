"""The composition root at run time: one service object per service and process.

Web apps build theirs on first request with the app's pool (``libs.kit.web``); Celery tasks,
consumers and operator tools call :func:`service_object`, which builds it once with a pool of its
own. Either way the service's ``build(runtime)`` is the only place its objects are wired.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from libs import config
from libs.kit.definition import Runtime, ServiceDef
from libs.kit.registry import definition


def schema_of(defn: ServiceDef) -> str:
    """The schema a process uses for ``defn``: ``ARCANA_<NAME>_SCHEMA`` or the service's name."""
    return os.environ.get(f"ARCANA_{defn.name.upper()}_SCHEMA", defn.schema)


_built: dict[str, tuple[Runtime, Any]] = {}
_lock = threading.Lock()


def built(name: str, *, pool_size: int = 4) -> tuple[Runtime, Any]:
    """This process's runtime and service object of ``name``, built on first use (after any fork)
    with a pool of their own on ``DATABASE_URL`` (or the embedded stack's database)."""
    with _lock:
        if name not in _built:
            from libs.db import make_pool

            defn = definition(name)
            settings = config.load()
            pool = make_pool(
                settings.database_url, min_size=1, max_size=pool_size, name=f"{name}-{os.getpid()}"
            )
            runtime = Runtime(defn, schema_of(defn), settings, pool)
            _built[name] = (runtime, defn.build(runtime))
        return _built[name]


def service_object(name: str) -> Any:
    """This process's service object of ``name`` (see :func:`built`)."""
    return built(name)[1]


@contextmanager
def provided(name: str, service: Any, runtime: Runtime | None = None) -> Iterator[Any]:
    """Within the block, ``service_object(name)`` is ``service`` (tests running tasks in-process)."""
    with _lock:
        before = _built.get(name)
        _built[name] = (runtime, service)  # type: ignore[assignment]
    try:
        yield service
    finally:
        with _lock:
            if before is None:
                _built.pop(name, None)
            else:
                _built[name] = before
