"""Composition root of the accounts service: what it is, and its objects wired once per process."""

from __future__ import annotations

from typing import Any

from flask import Flask
from psycopg import sql

from libs.kit import ErrorTable, ServiceDef
from libs.kit.runtime import Runtime
from libs.web.sessions import RevocationCache
from services.accounts import admin_api, api
from services.accounts.events import CATALOG
from services.accounts.passwords import dummy_hash
from services.accounts.publication import PUBLICATION
from services.accounts.service import AccountsConfig, AccountsService
from services.accounts.upcasting import UPCASTERS


def configure_app(app: Flask, options: dict[str, Any]) -> None:
    """Log-outs checked on every request of this app; the dummy hash built now, not on the first
    log-in of an unknown username."""
    context = app.extensions["arcana"]
    sessions = RevocationCache(lambda: context.pool, context.schema, query=_sessions_query(context.schema))
    context.sessions = options.setdefault("sessions", sessions)
    dummy_hash(options.setdefault("config", AccountsConfig.from_env()).scrypt)


def _sessions_query(schema: str) -> sql.Composed:
    """A player's token version and logged-out tokens; a deleted player's tokens are all refused
    (a version no token has), as the other services learn from its last ``AllSessionsRevoked``."""
    return sql.SQL(
        "SELECT p.token_version, ARRAY(SELECT r.token_id FROM {revoked} r WHERE r.player_id = p.player_id) "
        "FROM {players} p WHERE p.player_id = %(p)s "
        "UNION ALL SELECT 2147483647, ARRAY[]::text[] FROM {deleted} d WHERE d.player_id = %(p)s"
    ).format(
        revoked=sql.Identifier(schema, "revoked_tokens"),
        players=sql.Identifier(schema, "players"),
        deleted=sql.Identifier(schema, "deleted_players"),
    )


def build(runtime: Runtime) -> AccountsService:
    config = runtime.option("config") or AccountsConfig.from_env()
    return AccountsService(runtime.pool, runtime.schema, runtime.settings, config, runtime.option("sessions"))


def _blueprints() -> list[Any]:
    return [api.blp, admin_api.blp]


SERVICE = ServiceDef(
    name="accounts",
    prefixes=("/v1/accounts", "/v1/sessions", "/v1/me", "/v1/admin/accounts"),
    build=build,
    blueprints=_blueprints,
    errors=ErrorTable({**api.ERRORS.entries, **admin_api.ERRORS.entries}),
    events=(CATALOG,),
    upcasters=UPCASTERS,
    publication=PUBLICATION,  # every event in its current shape: never a username (issue 34)
    configure_app=configure_app,
    own_sessions=True,  # players.token_version and revoked_tokens; no subscription to itself
)
