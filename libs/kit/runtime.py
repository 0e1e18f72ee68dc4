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

from psycopg_pool import ConnectionPool

from libs import config
from libs.db.pool import CONSUMERS_POOL_MAX, make_pool, pool_max
from libs.kit.definition import Runtime, ServiceDef
from libs.kit.registry import definition


def schema_of(defn: ServiceDef) -> str:
    """The schema a process uses for ``defn``: ``ARCANA_<NAME>_SCHEMA`` or the service's name."""
    return config.SCHEMA.get(defn.name, defn.schema)


_built: dict[str, tuple[Runtime, Any]] = {}
_lock = threading.Lock()
_pool: ConnectionPool | None = None
_pool_default = CONSUMERS_POOL_MAX  # limit_pool() sets another for a kind of process


def limit_pool(default_max: int) -> None:
    """The size of this process's pool, when ``ARCANA_DB_POOL_MAX`` is unset, for a kind of process
    that needs fewer connections (a Celery child: services/worker.py). Call it before first use."""
    global _pool_default
    _pool_default = default_max


def process_pool(url: str, default_max: int | None = None) -> ConnectionPool:
    """This process's one pool, shared by every service built in it (connection budget:
    docs/operations.md). Created on first use (after any fork) with ``ARCANA_DB_POOL_MAX``
    connections at most (else ``default_max``, else the process kind's default); it connects
    lazily and closes connections idle for a while, so a process that rarely runs a task holds
    none."""
    global _pool
    if _pool is None or _pool.closed:
        size = pool_max(default_max or _pool_default)
        _pool = make_pool(url, min_size=0, max_size=size, name=f"arcana-{os.getpid()}")
    return _pool


def built(name: str, *, pool_size: int | None = None) -> tuple[Runtime, Any]:
    """This process's runtime and service object of ``name``, built on first use (after any fork)
    on the process's pool (``process_pool``; ``pool_size``: its size if this call creates it) on
    ``DATABASE_URL`` (or the embedded stack's database)."""
    with _lock:
        if name not in _built:
            defn = definition(name)
            settings = config.load()
            pool = process_pool(settings.database_url, pool_size)
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
