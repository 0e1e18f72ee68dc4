"""Composition root of the match service: what it is, and its objects wired once per process."""

from __future__ import annotations

from typing import Any

from libs.bus import topic_for
from libs.kit import ServiceDef, Subscription
from libs.kit.runtime import Runtime
from services.match import api, consumers
from services.match.bot import bot_key
from services.match.events import CATALOG, LIFECYCLE, RECORDS
from services.match.limits import MatchLimits
from services.match.notify import MatchNotifier
from services.match.publication import PUBLICATION
from services.match.scheduling import CeleryScheduler
from services.match.service import MatchService
from services.match.store import channel


def build(runtime: Runtime) -> MatchService:
    scheduler = runtime.option("scheduler") or CeleryScheduler()
    notifier = MatchNotifier(runtime.settings.database_url, channel(runtime.schema))  # listens on first wait
    limits = runtime.option("limits") or MatchLimits.from_env()
    key = bot_key(runtime.settings.token_secret)  # the bot's tie-breaks: a server secret
    return MatchService(runtime.pool, runtime.schema, scheduler, notifier, limits, key)


def _blueprints() -> list[Any]:
    return [api.blp]


SERVICE = ServiceDef(
    name="match",
    prefixes=("/v1/matches", "/v1/practice", "/v1/catalog", "/v1/admin/matches"),
    build=build,
    blueprints=_blueprints,
    errors=api.ERRORS,
    events=(CATALOG, LIFECYCLE, RECORDS),
    publication=PUBLICATION,  # live topic: public forms only; records topic: ended matches, as stored
    subscriptions=(
        Subscription(
            consumers.CONSUMER,
            (topic_for("matchmaking"),),
            {consumers.MATCH_REQUESTED: consumers.request_match},
        ),
        Subscription(
            consumers.PLAYERS_CONSUMER,
            (topic_for("accounts"),),
            {consumers.PLAYER_REGISTERED: consumers.player_registered},
        ),
        Subscription(
            consumers.ACTIVE_DECK_CONSUMER,
            (topic_for("economy"),),
            {consumers.ACTIVE_DECK_CHANGED: consumers.active_deck_changed},
        ),
    ),
)
