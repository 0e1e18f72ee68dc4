"""The progression app: ``create_app()`` for the combined gateway and
``gunicorn services.progression.wsgi:app`` when the service runs alone."""

from __future__ import annotations

from flask import Flask
from psycopg_pool import ConnectionPool

from libs.config import Settings
from libs.web import create_app as create_web_app
from libs.web import lazy_app

SERVICE = "progression"
PREFIXES = ("/v1/quests", "/v1/streak", "/v1/pass", "/v1/arcana")


def create_app(
    settings: Settings | None = None, pool: ConnectionPool | None = None, *, schema: str = SERVICE
) -> Flask:
    from services.progression import api

    return create_web_app(SERVICE, [api.blp], schema=schema, settings=settings, pool=pool)


__getattr__ = lazy_app(create_app)
