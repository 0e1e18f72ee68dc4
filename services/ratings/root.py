"""Composition root of the ratings service: what it is, and its objects wired once per process."""

from __future__ import annotations

from typing import Any

from libs.bus import lifecycle_topic_for, topic_for
from libs.kit import ErrorTable, ServiceDef, Subscription
from libs.kit.runtime import Runtime
from services.ratings import admin_api, api, consumers
from services.ratings.events import CATALOG
from services.ratings.service import RatingsService
from services.ratings.upcasting import UPCASTERS


def build(runtime: Runtime) -> RatingsService:
    return RatingsService(runtime.pool, runtime.schema)


def _blueprints() -> list[Any]:
    return [api.blp, admin_api.blp]


SERVICE = ServiceDef(
    name="ratings",
    prefixes=("/v1/ratings", "/v1/leaderboard", "/v1/admin/rating-voids"),
    build=build,
    blueprints=_blueprints,
    errors=ErrorTable({**api.ERRORS.entries, **admin_api.ERRORS.entries}),
    events=(CATALOG,),
    upcasters=UPCASTERS,
    subscriptions=(
        Subscription(
            consumers.MATCHES_CONSUMER,
            (lifecycle_topic_for("match"),),
            {consumers.MATCH_CREATED: consumers.match_created, consumers.MATCH_ENDED: consumers.match_ended},
        ),
        Subscription(
            consumers.ACCOUNTS_CONSUMER,
            (topic_for("accounts"),),
            {
                consumers.PLAYER_REGISTERED: consumers.display_name,
                consumers.DISPLAY_NAME_CHANGED: consumers.display_name,
                consumers.ACCOUNT_DELETED: consumers.display_name,
            },
        ),
    ),
)
