"""What matchmaking publishes on ``arcana.matchmaking.events`` (declared once; see docs/events.md).

Streams: ``ticket-<id>`` (a queue ticket's life) and ``request-<id>`` (one ``MatchRequested``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from libs.contracts.matchmaking import MatchRequested
from libs.games.registry import DEFAULT_GAME
from libs.kit.events import EventCatalog, IntegrationEvent, integration_event

TOPIC = "arcana.matchmaking.events"
PLAYER_DOC = (
    "the ticket's player (version 2; the relay gives a version 1 event the player of its ticket's "
    "`TicketOpened` on the topic; read from the store alone, e.g. an export, a version 1 event has null)"
)


@integration_event("TicketOpened", version=2)
@dataclass(frozen=True)
class TicketOpened(IntegrationEvent):
    """A player joined a queue with the deck it names (version 1 listed the cards: read without them)."""

    # No topic carries a deck list before the match that plays it has ended: match plays the
    # player's active deck from its own read model. A version 1 event keeps its list in the store
    # only; every reader, the relay included, reads it as version 2 (``upcasting.py``).

    ticket_id: str = field(metadata={"doc": "the ticket id (UUID)"})
    player_id: str = field(metadata={"doc": "the player's id"})
    mode: str = field(metadata={"doc": "`ranked` or `casual` (the arena: `casual` only)"})
    rating: int = field(
        metadata={
            "doc": "what a ranked ticket is paired by, when joining: Arcana's rating (900 before any "
            "ranked game), the line's MMR (1,000 before any); 0 for the arena (no rating)"
        }
    )
    deck_id: str | None = field(
        metadata={
            "doc": "the id of the player's active deck of that game when joining, as economy published "
            "it; `starter` for Arcana's starter deck before economy published any; null for the arena "
            "(no decks) and for tickets opened before version 2 (they named the cards)"
        }
    )
    deck_version: int = field(
        metadata={
            "doc": "the version of economy's deck stream whose `ActiveDeckChanged` made it active "
            "(0: the starter deck, the arena, or before version 2)"
        }
    )
    opened_at: str = field(metadata={"doc": "when (ISO 8601, UTC): waiting time counts from here"})
    game: str = field(
        default=DEFAULT_GAME,
        metadata={"doc": "`arcana`, `line` or `arena` (`arcana` when absent: tickets before games)"},
    )
    sizes: list[int] = field(
        default_factory=lambda: [2],
        metadata={"doc": "the table sizes the ticket accepts (the arena: some of 2, 3, 4; else `[2]`)"},
    )


@integration_event("TicketPaired", version=2)
@dataclass(frozen=True)
class TicketPaired(IntegrationEvent):
    """The pairing pass paired the ticket and requested a match."""

    ticket_id: str = field(metadata={"doc": "the ticket id"})
    player_id: str | None = field(metadata={"doc": PLAYER_DOC, "since": 2})
    request_id: str = field(metadata={"doc": "the MatchRequested's id"})
    match_id: str = field(metadata={"doc": "the match id the request will have"})
    opponent_id: str = field(metadata={"doc": "the other player's id (a table: the first other player)"})
    opponent_ticket: str = field(metadata={"doc": "the other ticket's id (a table: the first other ticket)"})
    rating_gap: int = field(
        metadata={"doc": "the absolute difference of the two tickets' ratings (a table: the largest)"}
    )
    paired_at: str = field(metadata={"doc": "when (ISO 8601, UTC): waiting time ends here"})
    opponents: list[str] = field(
        default_factory=list,
        metadata={
            "doc": "every other player of the table (an arena table: 1 to 3; absent before games: "
            "`[opponent_id]`); `opponent_id` is the first of them"
        },
    )


@integration_event("TicketMatched", version=2)
@dataclass(frozen=True)
class TicketMatched(IntegrationEvent):
    """The match service created the ticket's match."""

    ticket_id: str = field(metadata={"doc": "the ticket id"})
    player_id: str | None = field(metadata={"doc": PLAYER_DOC, "since": 2})
    match_id: str = field(metadata={"doc": "the match id"})


@integration_event("TicketFailed", version=1)
@dataclass(frozen=True)
class TicketFailed(IntegrationEvent):
    """The match service rejected the ticket's match request, or never answered it (120 s)."""

    ticket_id: str = field(metadata={"doc": "the ticket id"})
    match_id: str = field(metadata={"doc": "the match id the request would have had"})
    reason: str = field(
        metadata={"doc": "the match service's reason code (e.g. `invalid_deck`), or `no_answer`"}
    )
    message: str | None = field(metadata={"doc": "what was wrong, for people"})
    problems: list[str] = field(metadata={"doc": "details, one line each"})


@integration_event("TicketReturned", version=1)
@dataclass(frozen=True)
class TicketReturned(IntegrationEvent):
    """A match request refused for a reason that passes (match not yet aware of a player): waits again."""

    # e.g. a player who queued right after registering; waiting still counts from `opened_at`.

    ticket_id: str = field(metadata={"doc": "the ticket id"})
    player_id: str = field(metadata={"doc": "the ticket's player"})
    match_id: str = field(metadata={"doc": "the match id the request would have had"})
    reason: str = field(metadata={"doc": "the match service's reason code (`unknown_player`)"})
    message: str | None = field(metadata={"doc": "what was wrong, for people"})
    pair_after: str = field(
        metadata={
            "doc": "not paired again before this (ISO 8601, UTC): the return time for a ticket whose "
            "player the match service knew, later (doubling with each return, at most 30 s) for one "
            "it did not"
        }
    )
    returned_at: str = field(metadata={"doc": "when (ISO 8601, UTC)"})


@integration_event("TicketCancelled", version=1)
@dataclass(frozen=True)
class TicketCancelled(IntegrationEvent):
    """A waiting ticket left the queue."""

    ticket_id: str = field(metadata={"doc": "the ticket id"})
    reason: str = field(
        metadata={
            "doc": "`player` (cancelled), `abandoned` (not polled for 30 s) or `suspended` (an operator "
            "suspended the account)"
        }
    )
    cancelled_at: str = field(metadata={"doc": "when (ISO 8601, UTC)"})


CATALOG = EventCatalog(
    "matchmaking",
    TOPIC,
    (
        MatchRequested,
        TicketOpened,
        TicketPaired,
        TicketMatched,
        TicketReturned,
        TicketFailed,
        TicketCancelled,
    ),
    "Queue tickets (stream `ticket-<id>`) and match requests (stream `request-<id>`).",
)
