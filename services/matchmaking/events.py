"""What matchmaking publishes on ``arcana.matchmaking.events`` (declared once; see docs/events.md).

Streams: ``ticket-<id>`` (a queue ticket's life) and ``request-<id>`` (one ``MatchRequested``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from libs.contracts.matchmaking import MatchRequested
from libs.kit.events import EventCatalog, IntegrationEvent, integration_event

TOPIC = "arcana.matchmaking.events"


@integration_event("TicketOpened", version=1)
@dataclass(frozen=True)
class TicketOpened(IntegrationEvent):
    """A player joined a queue."""

    ticket_id: str = field(metadata={"doc": "the ticket id (UUID)"})
    player_id: str = field(metadata={"doc": "the player's id"})
    mode: str = field(metadata={"doc": "`ranked` or `casual` (the arena: `casual` only)"})
    rating: int = field(
        metadata={
            "doc": "what a ranked ticket is paired by, when joining: Arcana's rating (900 before any "
            "ranked game), the line's MMR (1,000 before any); 0 for the arena (no rating)"
        }
    )
    deck: list[str] = field(
        metadata={"doc": "the player's active deck of that game when joining (the arena: none, `[]`)"}
    )
    opened_at: str = field(metadata={"doc": "when (ISO 8601, UTC): waiting time counts from here"})
    game: str = field(
        default="arcana",
        metadata={"doc": "`arcana`, `line` or `arena` (`arcana` when absent: tickets before games)"},
    )
    sizes: list[int] = field(
        default_factory=lambda: [2],
        metadata={"doc": "the table sizes the ticket accepts (the arena: some of 2, 3, 4; else `[2]`)"},
    )


@integration_event("TicketPaired", version=1)
@dataclass(frozen=True)
class TicketPaired(IntegrationEvent):
    """The pairing pass paired the ticket and requested a match."""

    ticket_id: str = field(metadata={"doc": "the ticket id"})
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


@integration_event("TicketMatched", version=1)
@dataclass(frozen=True)
class TicketMatched(IntegrationEvent):
    """The match service created the ticket's match."""

    ticket_id: str = field(metadata={"doc": "the ticket id"})
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


@integration_event("TicketCancelled", version=1)
@dataclass(frozen=True)
class TicketCancelled(IntegrationEvent):
    """A waiting ticket left the queue."""

    ticket_id: str = field(metadata={"doc": "the ticket id"})
    reason: str = field(metadata={"doc": "`player` (cancelled) or `abandoned` (not polled for 30 s)"})
    cancelled_at: str = field(metadata={"doc": "when (ISO 8601, UTC)"})


CATALOG = EventCatalog(
    "matchmaking",
    TOPIC,
    (MatchRequested, TicketOpened, TicketPaired, TicketMatched, TicketFailed, TicketCancelled),
    "Queue tickets (stream `ticket-<id>`) and match requests (stream `request-<id>`).",
)
