"""The match events long-polls in a process of their own: ``gunicorn services.match.waits_wsgi:app
--worker-class gevent --config python:libs.gevent_conf``.

A waiting long-poll is then a greenlet of a few KiB that holds no thread and no database connection
(psycopg 3 waits cooperatively once gevent has patched the standard library, as the gevent worker
does before this module is imported), and the processes answering commands never share their GIL or
their database pool with a thousand waiters. An open match stream (``GET /v1/matches/<id>/stream``,
Server-Sent Events) is a greenlet here too, waiting the same way between its frames. Only ``GET
/v1/matches/<id>/events`` and ``/stream`` are served here; anything else gets a plain gateway app
(``/healthz``, ``/readyz``, ``/metrics``; 404 otherwise). The Ingress (Kubernetes) or the gthread
gunicorn (``make run``: the one port) sends the long-polls and streams here.
"""

from __future__ import annotations

from typing import Any

from psycopg_pool import ConnectionPool

from libs import config, kit
from libs.config import Settings
from libs.db import WEB_WORKER_POOL_MAX, pool_max
from libs.kit.web import create_service_app
from libs.web import base_app, lazy_app
from libs.web.context import lazy_pool
from libs.web.long_polls import LongPollRouter


def build_app(
    settings: Settings | None = None, pool: ConnectionPool | None = None, **options: Any
) -> LongPollRouter:
    """``options`` go to the match service's build (tests)."""
    settings = settings or config.load()
    pool = pool or lazy_pool(
        settings.database_url, max_size=pool_max(WEB_WORKER_POOL_MAX), name="arcana-waits"
    )
    (match,) = kit.discover(["match"])
    waits = create_service_app(match, settings, pool, **options)
    return LongPollRouter(waits, base_app("waits", schema=None, settings=settings, pool=pool))


__getattr__ = lazy_app(build_app)  # `app`, for gunicorn, built on first access
