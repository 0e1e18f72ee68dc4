"""Composition root of the economy service: what it is, and its objects wired once per process."""

from __future__ import annotations

from typing import Any

from libs.bus import lifecycle_topic_for, topic_for
from libs.kit import ErrorTable, ServiceDef, Subscription
from libs.kit.runtime import Runtime
from services.economy import admin_api, api, consumers, line_api
from services.economy.ceilings import GRANT_CEILING
from services.economy.events import CATALOG, DECKS, STORED_ONLY
from services.economy.publication import PUBLICATION
from services.economy.service import EconomyService
from services.economy.upcasting import UPCASTERS


def build(runtime: Runtime) -> EconomyService:
    return EconomyService(runtime.pool, runtime.schema, runtime.option("grant_ceiling") or GRANT_CEILING)


def _blueprints() -> list[Any]:
    return [api.blp, line_api.blp, admin_api.blp]


SERVICE = ServiceDef(
    name="economy",
    prefixes=(
        "/v1/wallet",
        "/v1/collection",
        "/v1/packs",
        "/v1/crafts",
        "/v1/disenchants",
        "/v1/decks",
        "/v1/line/welcome",
        "/v1/line/collection",
        "/v1/line/decks",
        "/v1/line/tournament",
        "/v1/admin/grants",
        "/v1/admin/wallets",
    ),
    build=build,
    blueprints=_blueprints,
    errors=ErrorTable({**api.ERRORS.entries, **admin_api.ERRORS.entries}),
    events=(CATALOG, DECKS),
    stored=STORED_ONLY,  # published without their cards (CATALOG declares that form)
    publication=PUBLICATION,  # deck events without cards; the active deck's cards for match alone
    upcasters=UPCASTERS,
    subscriptions=(
        Subscription(
            consumers.CONSUMER,
            (topic_for("accounts"), lifecycle_topic_for("match"), topic_for("progression")),
            consumers.HANDLERS,
        ),
    ),
)
