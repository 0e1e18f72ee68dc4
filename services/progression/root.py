"""Composition root of the progression service: what it is, and its objects wired once per process."""

from __future__ import annotations

from typing import Any

from libs.bus import lifecycle_topic_for, topic_for
from libs.kit import ServiceDef, Subscription
from libs.kit.runtime import Runtime
from services.progression import api, consumers
from services.progression.events import CATALOG
from services.progression.service import ProgressionService, draw_seed


def build(runtime: Runtime) -> ProgressionService:
    return ProgressionService(runtime.pool, runtime.schema, seeds=runtime.option("seeds") or draw_seed)


def _blueprints() -> list[Any]:
    return [api.blp]


SERVICE = ServiceDef(
    name="progression",
    prefixes=("/v1/quests", "/v1/streak", "/v1/pass", "/v1/arcana", "/v1/line/progress"),
    build=build,
    blueprints=_blueprints,
    errors=api.ERRORS,
    events=(CATALOG,),
    subscriptions=(
        Subscription(
            consumers.CONSUMER,
            (topic_for("accounts"), lifecycle_topic_for("match")),
            {
                consumers.PLAYER_LOGGED_IN: consumers.player_logged_in,
                consumers.MATCH_ENDED: consumers.match_ended,
            },
        ),
    ),
)
