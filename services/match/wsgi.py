"""The match app: ``create_app()`` for the combined gateway (services/wsgi.py) and
``gunicorn services.match.wsgi:app`` when the service runs alone (one Deployment)."""

from __future__ import annotations

from typing import Any

from flask import Flask
from psycopg_pool import ConnectionPool

from libs.config import Settings
from libs.web import create_app as create_web_app
from libs.web import lazy_app

SERVICE = "match"
PREFIXES = ("/v1/matches", "/v1/practice", "/v1/catalog", "/v1/admin/matches")


def create_app(
    settings: Settings | None = None,
    pool: ConnectionPool | None = None,
    *,
    schema: str = SERVICE,
    scheduler: Any = None,
) -> Flask:
    """The match Flask app. ``scheduler`` (see ``services.match.scheduling``) defaults to Celery."""
    from services.match import api
    from services.match.scheduling import CeleryScheduler

    app = create_web_app(SERVICE, [api.blp], schema=schema, settings=settings, pool=pool)
    app.extensions["match_scheduler"] = scheduler if scheduler is not None else CeleryScheduler()
    return app


__getattr__ = lazy_app(create_app)  # `app`, for gunicorn, built on first access
