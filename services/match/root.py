"""Composition root of the match service: what it is, and its objects wired once per process.

``build`` is the only place the service's objects are made and connected. The games it hosts
(``games.load_games``: the built-in ones and those ``ARCANA_GAMES`` names) are loaded at start-up:
when a web app is created (``_blueprints``) and when the service object is built (workers,
consumers, tools).
"""

from __future__ import annotations

from typing import Any

from psycopg_pool import ConnectionPool

from libs.bus import topic_for
from libs.contracts import DECKS_TOPIC
from libs.kit import ServiceDef, Subscription
from libs.kit.runtime import Runtime
from services.match import api, consumers, suspensions, tournament_api
from services.match.events import CATALOG, LIFECYCLE, RECORDS
from services.match.games import load_games
from services.match.notify import MatchNotifier
from services.match.presence import Presence
from services.match.publication import PUBLICATION
from services.match.repository import MatchRepository
from services.match.scheduling import CeleryScheduler, Dispatcher, Scheduler
from services.match.service import MatchService
from services.match.store import channel
from services.match.upcasting import StreamUpcasters
from services.match.usecases.bot import BotPlayer, bot_key
from services.match.usecases.commands import PlayerCommands
from services.match.usecases.creation import MatchCreation
from services.match.usecases.limits import LongPollSlots, MatchLimits
from services.match.usecases.polls import PlayerReads
from services.match.usecases.streams import MatchStreams, StreamSettings
from services.match.usecases.sweep import Sweeper
from services.match.usecases.system import SystemCommands
from services.match.usecases.tournaments import Tournaments


def build(runtime: Runtime) -> MatchService:
    load_games()
    notifier = MatchNotifier(runtime.settings.database_url, channel(runtime.schema))  # listens on first wait
    return assemble(
        runtime.pool,
        runtime.schema,
        scheduler=runtime.option("scheduler") or CeleryScheduler(),
        notifier=notifier,
        limits=runtime.option("limits") or MatchLimits.from_env(),
        streams=runtime.option("streams") or StreamSettings.from_env(),
        bot_key=bot_key(runtime.settings.token_secret),  # the bot's tie-breaks: a server secret
    )


def assemble(
    pool: ConnectionPool,
    schema: str,
    *,
    scheduler: Scheduler | None = None,
    notifier: MatchNotifier | None = None,
    limits: MatchLimits | None = None,
    bot_key: bytes | None = None,
    streams: StreamSettings | None = None,
) -> MatchService:
    """The service's objects on ``pool`` and ``schema``, connected (``build``'s wiring; tools and
    tests without a runtime call it directly). Without a scheduler nothing is sent after commits."""
    limits = limits or MatchLimits()
    matches = MatchRepository(pool, schema)
    presence = Presence(schema)
    dispatcher = Dispatcher(scheduler)
    system = SystemCommands(matches, presence, dispatcher)
    bot = BotPlayer(system, bot_key)
    slots = LongPollSlots(limits.long_polls_per_player)
    reads = PlayerReads(matches, system, presence, notifier, slots)
    creation = MatchCreation(matches, dispatcher, limits)
    return MatchService(
        pool=pool,
        schema=schema,
        matches=matches,
        creation=creation,
        commands=PlayerCommands(matches, presence, dispatcher),
        reads=reads,
        streams=MatchStreams(reads, streams),
        system=system,
        bot=bot,
        sweeper=Sweeper(matches, system, bot),
        dispatcher=dispatcher,
        tournaments=Tournaments(matches, creation, dispatcher),
    )


def _blueprints() -> list[Any]:
    load_games()  # at the web app's creation: its input schemas name the hosted games
    return [api.blp, tournament_api.blp]


SERVICE = ServiceDef(
    name="match",
    prefixes=("/v1/matches", "/v1/practice", "/v1/catalog", "/v1/admin/matches", "/v1/tournaments"),
    build=build,
    blueprints=_blueprints,
    errors=api.ERRORS,
    events=(CATALOG, LIFECYCLE, RECORDS),
    publication=PUBLICATION,  # live topic: public forms only; records topic: ended matches, as stored
    upcasters=StreamUpcasters(),  # older versions read as current, a game's events by their stream's game
    subscriptions=(
        Subscription(
            consumers.CONSUMER,
            (topic_for("matchmaking"),),
            {consumers.MATCH_REQUESTED: consumers.request_match},
        ),
        Subscription(
            consumers.PLAYERS_CONSUMER,
            (topic_for("accounts"),),
            {consumers.PLAYER_REGISTERED: consumers.player_registered, **suspensions.HANDLERS},
        ),
        Subscription(
            consumers.ACTIVE_DECK_CONSUMER,
            (DECKS_TOPIC,),  # the active decks with their cards: match's alone to read
            {
                consumers.ACTIVE_DECK_CHANGED: consumers.active_deck_changed,
                consumers.TOURNAMENT_ENTRY_MADE: consumers.tournament_entry_made,
            },
        ),
    ),
)
