"""What match publishes on ``arcana.match.events`` for other services (declared once, in
``libs.contracts.match``; see docs/events.md), and on ``arcana.match.records`` for analysts. Each
game's own events are stored in the match stream too (Arcana's: docs/rules.md): the live topic
carries their public form, the records topic every event as stored once a match has ended
(``publication.py``)."""

from __future__ import annotations

from libs.contracts.match import (
    MatchCreated,
    MatchEnded,
    MatchRequestRejected,
    PlayerDisconnected,
    PlayerReconnected,
)
from libs.contracts.tournament import BRACKET_EVENTS
from libs.games import END_EVENT, registry
from libs.kit.events import EventCatalog

TOPIC = "arcana.match.events"
LIFECYCLE_TOPIC = "arcana.match.lifecycle"
RECORDS_TOPIC = "arcana.match.records"


# What match declares, the same on each of its topics.
EVENTS = (MatchCreated, MatchRequestRejected, PlayerDisconnected, PlayerReconnected, MatchEnded)
# Each built-in game's own events, as each game declares them (the stored end is the service's
# MatchEnded, enriched): their public forms live, as stored in the records.
LIVE_GAME_EVENTS = tuple(e for g in registry.games() for e in g.public_events if e.TYPE != END_EVENT)
RECORDED_GAME_EVENTS = tuple(e for g in registry.games() for e in g.events if e.TYPE != END_EVENT)

CATALOG = EventCatalog(
    "match",
    TOPIC,
    (*EVENTS, *LIVE_GAME_EVENTS),
    "Matches, one stream `match-<id>` each, as they run: only what is public. Each game event "
    "(Arcana's: docs/rules.md) comes in the form a spectator sees (`Game.visible_event`: no seed, "
    "deck lists, deck orders or drawn cards; `DeckShuffled` not at all), and no `state_hash`; so the "
    "versions of a stream have gaps here.",
)

LIFECYCLE = EventCatalog(
    "match",
    LIFECYCLE_TOPIC,
    (*EVENTS, *BRACKET_EVENTS),
    "The events of `arcana.match.events` that other services act on, and nothing else: each one "
    "exactly as it is there, keyed by the same stream, in the same order. Subscribe here unless you "
    "need every move: the live topic carries several rules events per command, which a consumer "
    "of these would fetch and skip. Also each tournament bracket's steps (stream `tournament-<id>`, "
    'docs/line.md, "Tournament"), only here: `TournamentEntered` without the entry\'s cards, the '
    "decks chosen for a round only in `TournamentFightStarted`; the economy pays "
    "`TournamentPlaceAwarded`.",
)

RECORDS = EventCatalog(
    "match",
    RECORDS_TOPIC,
    (MatchCreated, PlayerDisconnected, PlayerReconnected, MatchEnded, *RECORDED_GAME_EVENTS),
    "The complete record of each ended match, for analysts and replay: every event of its stream "
    "exactly as stored (rules events with seed, decks, deck orders and draws; the last event of each "
    "command's batch also carries `state_hash`, the replay check), published when its `MatchEnded` "
    "is relayed, never while it runs. A rejected request is no match: it never comes here. No "
    "service consumes it.",
)
