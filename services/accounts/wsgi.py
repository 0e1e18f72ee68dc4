"""The accounts app: ``create_app()`` for the combined gateway (services/wsgi.py) and
``gunicorn services.accounts.wsgi:app`` when the service runs alone (one Deployment)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Flask
from psycopg_pool import ConnectionPool

from libs.config import Settings
from libs.web import create_app as create_web_app
from libs.web import lazy_app

if TYPE_CHECKING:
    from services.accounts.handlers import AccountsConfig

SERVICE = "accounts"
PREFIXES = ("/v1/accounts", "/v1/sessions", "/v1/me")


def create_app(
    settings: Settings | None = None,
    pool: ConnectionPool | None = None,
    *,
    schema: str = SERVICE,
    config: AccountsConfig | None = None,
) -> Flask:
    """The accounts Flask app. ``config`` (an ``AccountsConfig``) defaults to the environment's."""
    from libs.web.sessions import RevocationCache
    from services.accounts import api, handlers
    from services.accounts.passwords import dummy_hash

    app = create_web_app(SERVICE, [api.blp], schema=schema, settings=settings, pool=pool)
    config = config or handlers.AccountsConfig.from_env()
    app.extensions["accounts_config"] = config
    context = app.extensions["arcana"]
    context.sessions = RevocationCache(lambda: context.pool, schema)  # log-outs apply here
    dummy_hash(config.scrypt)  # now, not on the first unknown username (it costs one hash)
    return app


__getattr__ = lazy_app(create_app)  # `app`, for gunicorn, built on first access
