"""Composition root of the accounts service: what it is, and its objects wired once per process."""

from __future__ import annotations

from typing import Any

from libs.kit import ServiceDef
from libs.kit.runtime import Runtime
from services.accounts import api
from services.accounts.events import CATALOG
from services.accounts.service import AccountsConfig, AccountsService


def build(runtime: Runtime) -> AccountsService:
    config = runtime.option("config") or AccountsConfig.from_env()
    return AccountsService(runtime.pool, runtime.schema, runtime.settings, config)


def _blueprints() -> list[Any]:
    return [api.blp]


SERVICE = ServiceDef(
    name="accounts",
    prefixes=("/v1/accounts", "/v1/sessions", "/v1/me"),
    build=build,
    blueprints=_blueprints,
    errors=api.ERRORS,
    events=(CATALOG,),
)
