"""Services under one WSGI app, routed by path prefix: ``gunicorn services.wsgi:app``.

Every service found by ``libs.kit.discover()`` is mounted at its prefixes and at
``/v1/openapi/<name>.json``; ``ARCANA_SERVICES=accounts,match`` limits a process to those (one
Deployment per service in Kubernetes). The top-level ``/healthz``, ``/readyz``, ``/metrics``, the
browser client ``/play``, the API reference ``/docs`` (``libs.webclient``) and unknown paths are
answered by a plain gateway app. All apps of a process share one lazily opened database pool of
``ARCANA_DB_POOL_MAX`` connections (default ``WEB_WORKER_POOL_MAX``). With ``ARCANA_LONG_POLLS_AT``
(``host:port``; ``make run`` sets it) the match events long-polls are passed on to the long-poll
process there (``services/match/waits_wsgi.py``) instead of being served here.
"""

from __future__ import annotations

from typing import Any

from psycopg_pool import ConnectionPool

from libs import config, kit, webclient
from libs.config import Settings
from libs.db import WEB_WORKER_POOL_MAX, pool_max
from libs.kit.web import create_service_app
from libs.web import PrefixDispatcher, base_app, lazy_app
from libs.web.app import OPENAPI_PREFIX
from libs.web.context import lazy_pool
from libs.web.forward import Forwarder
from libs.web.long_polls import LongPollRouter


def selected_services() -> list[str] | None:
    """The services this process serves (``ARCANA_SERVICES``), or None for all of them."""
    return list(config.SERVICES.get()) or None


def build_app(
    settings: Settings | None = None,
    pool: ConnectionPool | None = None,
    *,
    schemas: dict[str, str] | None = None,
    **options: Any,
) -> PrefixDispatcher:
    """``schemas`` (service -> schema) and ``options`` (passed to each service's build) are for tests."""
    settings = settings or config.load()
    pool = pool or lazy_pool(
        settings.database_url,
        max_size=pool_max(WEB_WORKER_POOL_MAX),
        name="arcana-gateway",
    )
    mounts: list[tuple[str, Any]] = []
    for defn in kit.discover(selected_services()):
        schema = (schemas or {}).get(defn.name)
        app = create_service_app(defn, settings, pool, schema=schema, **options)
        mounts.extend((prefix, app) for prefix in (*defn.prefixes, f"{OPENAPI_PREFIX}/{defn.name}.json"))
    gateway = base_app("gateway", schema=None, settings=settings, pool=pool)
    webclient.install(gateway, kit.service_names())  # every document: the Ingress routes each to its pods
    return PrefixDispatcher(gateway, mounts)


def served_app() -> PrefixDispatcher | LongPollRouter:
    """What gunicorn serves: ``build_app()``, behind the long-poll router when ``ARCANA_LONG_POLLS_AT``
    names the long-poll process."""
    app = build_app()
    long_polls = config.LONG_POLLS_AT.get()
    if not long_polls:
        return app
    host, _, port = long_polls.rpartition(":")
    return LongPollRouter(Forwarder(host, int(port)), app)


__getattr__ = lazy_app(served_app)  # `app`, for gunicorn, built on first access
