"""Composition root of the matchmaking service: what it is, and its objects wired once per process."""

from __future__ import annotations

from typing import Any

from libs.bus import lifecycle_topic_for, topic_for
from libs.kit import ServiceDef, Subscription
from libs.kit.runtime import Runtime
from services.matchmaking import api, consumers, suspensions, voids
from services.matchmaking.events import CATALOG
from services.matchmaking.publication import PUBLICATION
from services.matchmaking.service import MatchmakingService
from services.matchmaking.upcasting import UPCASTERS


def build(runtime: Runtime) -> MatchmakingService:
    return MatchmakingService(runtime.pool, runtime.schema)


def _blueprints() -> list[Any]:
    return [api.blp]


SERVICE = ServiceDef(
    name="matchmaking",
    prefixes=("/v1/queue",),
    build=build,
    blueprints=_blueprints,
    errors=api.ERRORS,
    events=(CATALOG,),
    publication=PUBLICATION,  # every event in its current shape: no deck list (issue 34, finding 2)
    upcasters=UPCASTERS,
    purge_closed=MatchmakingService.purge_closed,
    subscriptions=(
        Subscription(consumers.DECKS_CONSUMER, (topic_for("economy"),), consumers.DECK_HANDLERS),
        Subscription(
            consumers.RATINGS_CONSUMER,
            (topic_for("ratings"),),
            {**consumers.RATING_HANDLERS, **voids.HANDLERS},
        ),
        Subscription(consumers.MATCHES_CONSUMER, (lifecycle_topic_for("match"),), consumers.MATCH_HANDLERS),
        Subscription(suspensions.CONSUMER, (topic_for("accounts"),), suspensions.HANDLERS),
    ),
)
