"""Every service under one WSGI app, routed by path prefix: ``gunicorn services.wsgi:app``.

To add a service, append its name to ``SERVICES``; its module ``services/<name>/wsgi.py`` must
expose ``create_app(settings=None, pool=None) -> Flask`` and ``PREFIXES`` (ARCHITECTURE.md's
routing table). Its OpenAPI document is routed to it as ``/v1/openapi/<name>.json``. The top-level
``/healthz``, ``/readyz``, ``/metrics`` and unknown paths are answered by a plain gateway app.
All apps of a process share one lazily opened database pool.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

from psycopg_pool import ConnectionPool

from libs import config
from libs.config import Settings
from libs.web import PrefixDispatcher, base_app, lazy_app
from libs.web.app import OPENAPI_PREFIX
from libs.web.context import lazy_pool

SERVICES: tuple[str, ...] = ("accounts", "match")


def build_app(settings: Settings | None = None, pool: ConnectionPool | None = None) -> PrefixDispatcher:
    settings = settings or config.load()
    pool = pool or lazy_pool(
        settings.database_url,
        max_size=int(os.environ.get("ARCANA_DB_POOL_SIZE", "10")),
        name="arcana-gateway",
    )
    mounts: list[tuple[str, Any]] = []
    for name in SERVICES:
        module = importlib.import_module(f"services.{name}.wsgi")
        app = module.create_app(settings=settings, pool=pool)
        mounts.extend((prefix, app) for prefix in (*module.PREFIXES, f"{OPENAPI_PREFIX}/{name}.json"))
    gateway = base_app("gateway", schema=None, settings=settings, pool=pool)
    return PrefixDispatcher(gateway, mounts)


__getattr__ = lazy_app(build_app)  # `app`, for gunicorn, built on first access
