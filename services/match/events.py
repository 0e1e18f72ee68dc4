"""What match publishes on ``arcana.match.events`` for other services (declared once; see
docs/events.md), and on ``arcana.match.records`` for analysts. The rules engine's own game events
are stored in the match stream too (docs/rules.md): the live topic carries their public form, the
records topic every event as stored once a match has ended (``publication.py``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from libs.kit.events import EventCatalog, IntegrationEvent, integration_event

TOPIC = "arcana.match.events"
LIFECYCLE_TOPIC = "arcana.match.lifecycle"
RECORDS_TOPIC = "arcana.match.records"


@integration_event("MatchCreated", version=1)
@dataclass(frozen=True)
class MatchCreated(IntegrationEvent):
    """A match exists (the first event of its stream `match-<id>`)."""

    match_id: str = field(metadata={"doc": "the match id (UUID)"})
    mode: str = field(metadata={"doc": "`ranked`, `casual`, `practice` or `admin`"})
    players: list[str] = field(metadata={"doc": "the two player ids (a bot's id starts with `bot-`)"})
    bot: str | None = field(metadata={"doc": "the bot's player id in a practice match"})
    request_id: str | None = field(metadata={"doc": "the MatchRequested that asked for it"})


@integration_event("MatchRequestRejected", version=1)
@dataclass(frozen=True)
class MatchRequestRejected(IntegrationEvent):
    """A MatchRequested could not start a match (the only event of its stream)."""

    match_id: str = field(metadata={"doc": "the match id the request would have had"})
    request_id: str = field(metadata={"doc": "the request's id"})
    mode: Any = field(metadata={"doc": "the mode as requested"})
    players: Any = field(metadata={"doc": "the players as requested"})
    reason: str = field(
        metadata={
            "doc": "`invalid_deck`, `invalid_mode`, `invalid_players`, `unknown_player` (accounts never "
            "registered them), `match_in_progress` (a player's ranked or casual match has not ended), "
            "`illegal_deck` (an active deck not legal against the collection), `deck_mismatch` (not "
            "the player's active deck) or an engine code"
        }
    )
    message: str = field(metadata={"doc": "what was wrong, for people"})
    problems: Any = field(metadata={"doc": "details: per player, each deck problem"})


@integration_event("PlayerDisconnected", version=1)
@dataclass(frozen=True)
class PlayerDisconnected(IntegrationEvent):
    """A player made no request for 20 s; 120 s after `since` they forfeit."""

    player: str = field(metadata={"doc": "the player id"})
    since: str = field(metadata={"doc": "when they went silent (ISO 8601, UTC)"})


@integration_event("PlayerReconnected", version=1)
@dataclass(frozen=True)
class PlayerReconnected(IntegrationEvent):
    """A disconnected player made a request again."""

    player: str = field(metadata={"doc": "the player id"})
    since: str = field(
        metadata={
            "doc": "when they went silent: the `since` of the PlayerDisconnected this ends (ISO 8601, UTC)"
        }
    )


@integration_event("MatchEnded", version=1)
@dataclass(frozen=True)
class MatchEnded(IntegrationEvent):
    """A match is over: who won, why, and what each player did (quests, rewards, ratings read it)."""

    winner: str = field(metadata={"doc": "the winner's player id, or `draw`"})
    reason: str = field(metadata={"doc": "`hero_killed`, `concede`, `timeouts`, `disconnect` or `draw`"})
    match_id: str = field(metadata={"doc": "the match id"})
    mode: str = field(metadata={"doc": "`ranked`, `casual`, `practice` or `admin`"})
    players: list[str] = field(metadata={"doc": "the two player ids"})
    loser: str | None = field(metadata={"doc": "the loser's id; null on a draw"})
    draw: bool = field(metadata={"doc": "whether it was a draw"})
    turns: int = field(metadata={"doc": "turns started (rewards count only matches with turns >= 4)"})
    round: int = field(metadata={"doc": "the round reached"})
    bot: str | None = field(metadata={"doc": "the bot's id in a practice match"})
    stats: dict[str, Any] = field(
        metadata={
            "doc": "per player id: `units_played` (by tribe), `spells_cast`, `hero_damage`, "
            "`cards_drawn`, `units_killed`, `turns`, `went_first`"
        }
    )
    verdict: dict[str, Any] | None = field(
        default=None,
        metadata={
            "doc": "per player id, what the match counts for them (docs/rules.md, Fair play): `coins`, "
            "`xp` (XP and quests), `rating` (their rating moves by the result), each a bool; `reasons` "
            "(per aspect that does not count: `repeat_opponent`, `daily_coin_limit`, `early_concede`, "
            "`too_short`, `mode`, `not_ranked`, `draw`) and `message`, the words shown to the player. "
            "Absent on events from before it existed: read them by the rule of their time "
            "(`libs.fairplay.verdicts_of`)"
        },
    )


# What match declares, the same on each of its topics.
EVENTS = (MatchCreated, MatchRequestRejected, PlayerDisconnected, PlayerReconnected, MatchEnded)

CATALOG = EventCatalog(
    "match",
    TOPIC,
    EVENTS,
    "Matches, one stream `match-<id>` each, as they run: only what is public. Besides these, each "
    "rules event (docs/rules.md) in the form a spectator sees (`libs.rules.visible_event`: no seed, "
    "deck lists, deck orders or drawn cards; `DeckShuffled` not at all), and no `state_hash`; so the "
    "versions of a stream have gaps here.",
)

LIFECYCLE = EventCatalog(
    "match",
    LIFECYCLE_TOPIC,
    EVENTS,
    "The events of `arcana.match.events` that other services act on, and nothing else: each one "
    "exactly as it is there, keyed by the same stream, in the same order. Subscribe here unless you "
    "need every move: the live topic carries several rules events per command, which a consumer "
    "of these would fetch and skip.",
)

RECORDS = EventCatalog(
    "match",
    RECORDS_TOPIC,
    EVENTS,
    "The complete record of each ended match, for analysts and replay: every event of its stream "
    "exactly as stored (rules events with seed, decks, deck orders and draws, and `state_hash`), "
    "published when its `MatchEnded` is relayed, never while it runs. The fields below are those of "
    "the service's own events; the rules events are in docs/rules.md. No service consumes it.",
)
