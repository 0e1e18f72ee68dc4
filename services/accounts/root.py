"""Composition root of the accounts service: what it is, and its objects wired once per process."""

from __future__ import annotations

from typing import Any

from flask import Flask

from libs.kit import ServiceDef
from libs.kit.runtime import Runtime
from libs.web.sessions import RevocationCache
from services.accounts import api
from services.accounts.events import CATALOG
from services.accounts.passwords import dummy_hash
from services.accounts.service import AccountsConfig, AccountsService


def configure_app(app: Flask, options: dict[str, Any]) -> None:
    """Log-outs checked on every request of this app; the dummy hash built now, not on the first
    log-in of an unknown username."""
    context = app.extensions["arcana"]
    context.sessions = options.setdefault("sessions", RevocationCache(lambda: context.pool, context.schema))
    dummy_hash(options.setdefault("config", AccountsConfig.from_env()).scrypt)


def build(runtime: Runtime) -> AccountsService:
    config = runtime.option("config") or AccountsConfig.from_env()
    return AccountsService(runtime.pool, runtime.schema, runtime.settings, config, runtime.option("sessions"))


def _blueprints() -> list[Any]:
    return [api.blp]


SERVICE = ServiceDef(
    name="accounts",
    prefixes=("/v1/accounts", "/v1/sessions", "/v1/me"),
    build=build,
    blueprints=_blueprints,
    errors=api.ERRORS,
    events=(CATALOG,),
    configure_app=configure_app,
    own_sessions=True,  # players.token_version and revoked_tokens; no subscription to itself
)
