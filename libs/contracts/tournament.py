"""A game's tournament across services (docs/line.md, "Tournament"): the economy takes an entry (the
player's cards, checked against the collection) and publishes it in full on ``DECKS_TOPIC`` for the
match service alone (``TournamentEntryMade``); the match service keeps the bracket (stream
``tournament-<id>``), publishes its steps on ``arcana.match.lifecycle`` and each human's place as
``TournamentPlaceAwarded``, which the economy pays once and which closes the entry."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from libs.contracts.base import IntegrationEvent, integration_event

_T = "the tournament's id (UUID; stream `tournament-<id>`)"
_P = "the player (a bot's id starts with `bot-`)"
_ROUND = "the round (1: the first; 3 rounds in 8 seats)"
_ENTRY = "the entry's id (UUID)"


def _without_cards(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "cards"}


@integration_event("TournamentEntryMade", version=1)
@dataclass(frozen=True)
class TournamentEntryMadeInFull(IntegrationEvent):
    """A player entered the game's tournament with cards of their collection (stream `line-<player>`
    for the line). Only on `arcana.economy.decks`: the match service seats it in a bracket."""

    player_id: str = field(metadata={"doc": "the player"})
    entry_id: str = field(metadata={"doc": _ENTRY})
    game: str = field(metadata={"doc": "the game of the tournament"})
    cards: list[str] = field(metadata={"doc": "the entry's card ids (the line: ten different cards)"})
    entered_at: str = field(metadata={"doc": "when (ISO 8601, UTC)"})


@integration_event("TournamentEntryMade", version=2)
@dataclass(frozen=True)
class TournamentEntryMade(IntegrationEvent):
    """A player entered the game's tournament, without the entry's cards (version 1 as stored)."""

    UPCASTERS = {1: _without_cards}

    player_id: str = field(metadata={"doc": "the player"})
    entry_id: str = field(metadata={"doc": _ENTRY})
    game: str = field(metadata={"doc": "the game of the tournament"})
    entered_at: str = field(metadata={"doc": "when (ISO 8601, UTC)"})


@integration_event("TournamentEntryClosed", version=1)
@dataclass(frozen=True)
class TournamentEntryClosed(IntegrationEvent):
    """The player's entry is over: their place was awarded (they may enter again)."""

    player_id: str = field(metadata={"doc": "the player"})
    entry_id: str = field(metadata={"doc": _ENTRY})
    tournament_id: str = field(metadata={"doc": _T})
    place: int = field(metadata={"doc": "the place (1: the winner)"})


@integration_event("TournamentOpened", version=1)
@dataclass(frozen=True)
class TournamentOpened(IntegrationEvent):
    """A bracket opened at its first entry (the first event of its stream)."""

    tournament_id: str = field(metadata={"doc": _T})
    game: str = field(metadata={"doc": "the game played"})
    seats: int = field(metadata={"doc": "seats (a power of two: 8 for the line)"})
    fill_after: int = field(metadata={"doc": "seconds after the opening when bots take the empty seats"})
    choose_seconds: int = field(metadata={"doc": "each round's window to choose a deck from one's entry"})
    opened_at: str = field(metadata={"doc": "when (ISO 8601, UTC)"})


@integration_event("TournamentEntered", version=1)
@dataclass(frozen=True)
class TournamentEntered(IntegrationEvent):
    """An entrant took a seat (in the order they came; bots at the fill). On the topic without the
    entry's cards (stored with them: `cards`)."""

    tournament_id: str = field(metadata={"doc": _T})
    player_id: str = field(metadata={"doc": _P})
    entry_id: str = field(metadata={"doc": _ENTRY})
    bot: bool = field(metadata={"doc": "a bot's seat"})


@integration_event("TournamentFilled", version=1)
@dataclass(frozen=True)
class TournamentFilled(IntegrationEvent):
    """Every seat taken; the seating drawn (round 1 pairs seats 1-2, 3-4, ...)."""

    tournament_id: str = field(metadata={"doc": _T})
    order: list[str] = field(metadata={"doc": "the entrants in bracket order"})
    filled_at: str = field(metadata={"doc": "when (ISO 8601, UTC)"})


@integration_event("TournamentRoundStarted", version=1)
@dataclass(frozen=True)
class TournamentRoundStarted(IntegrationEvent):
    """A round's pairs; each player chooses a deck from their entry until `choose_until`."""

    tournament_id: str = field(metadata={"doc": _T})
    round: int = field(metadata={"doc": _ROUND})
    pairs: list[list[str]] = field(metadata={"doc": "the round's fights, two players each"})
    choose_until: str = field(metadata={"doc": "the window's end (ISO 8601, UTC); then the default deck"})


@integration_event("TournamentFightStarted", version=1)
@dataclass(frozen=True)
class TournamentFightStarted(IntegrationEvent):
    """A round's fight is a match of the game (the decks were chosen, or defaulted, before it)."""

    tournament_id: str = field(metadata={"doc": _T})
    round: int = field(metadata={"doc": _ROUND})
    players: list[str] = field(metadata={"doc": "the pair"})
    match_id: str = field(metadata={"doc": "the match (`GET /v1/matches/<id>` for its players)"})
    lineups: dict[str, list[str]] = field(metadata={"doc": "each player's deck (public once it fights)"})


@integration_event("TournamentFightRecorded", version=1)
@dataclass(frozen=True)
class TournamentFightRecorded(IntegrationEvent):
    """A fight's match ended: its winner and loser (no winner: the pair's first seat wins)."""

    tournament_id: str = field(metadata={"doc": _T})
    round: int = field(metadata={"doc": _ROUND})
    match_id: str = field(metadata={"doc": "the match"})
    players: list[str] = field(metadata={"doc": "the pair"})
    winner: str = field(metadata={"doc": "who advances"})
    loser: str = field(metadata={"doc": "who is eliminated"})


@integration_event("TournamentPlayerAdvanced", version=1)
@dataclass(frozen=True)
class TournamentPlayerAdvanced(IntegrationEvent):
    """A fight's winner goes on to the next round."""

    tournament_id: str = field(metadata={"doc": _T})
    round: int = field(metadata={"doc": "the round won"})
    player_id: str = field(metadata={"doc": _P})


@integration_event("TournamentPlayerEliminated", version=1)
@dataclass(frozen=True)
class TournamentPlayerEliminated(IntegrationEvent):
    """A fight's loser is out, with the place the round gives."""

    tournament_id: str = field(metadata={"doc": _T})
    round: int = field(metadata={"doc": "the round lost"})
    player_id: str = field(metadata={"doc": _P})
    place: int = field(metadata={"doc": "the place (8 seats: 5 for 5th-8th, 3 for 3rd-4th, 2)"})


@integration_event("TournamentPlaceAwarded", version=1)
@dataclass(frozen=True)
class TournamentPlaceAwarded(IntegrationEvent):
    """A human entrant's place is settled and paid (the economy credits it once, closing the entry;
    bots are awarded nothing)."""

    tournament_id: str = field(metadata={"doc": _T})
    game: str = field(metadata={"doc": "the game"})
    player_id: str = field(metadata={"doc": "the player"})
    entry_id: str = field(metadata={"doc": _ENTRY})
    place: int = field(metadata={"doc": "the place (1: the winner)"})
    currency: str = field(metadata={"doc": "`shards` (the line)"})
    amount: int = field(metadata={"doc": "what the place pays (the game's prize table)"})


@integration_event("TournamentEnded", version=1)
@dataclass(frozen=True)
class TournamentEnded(IntegrationEvent):
    """The final was recorded: every entrant's place."""

    tournament_id: str = field(metadata={"doc": _T})
    winner: str = field(metadata={"doc": "the winner"})
    places: dict[str, int] = field(metadata={"doc": "player id -> place"})
    ended_at: str = field(metadata={"doc": "when (ISO 8601, UTC)"})


BRACKET_EVENTS = (
    TournamentOpened,
    TournamentEntered,
    TournamentFilled,
    TournamentRoundStarted,
    TournamentFightStarted,
    TournamentFightRecorded,
    TournamentPlayerAdvanced,
    TournamentPlayerEliminated,
    TournamentPlaceAwarded,
    TournamentEnded,
)
"""What the match service publishes of a bracket on ``arcana.match.lifecycle`` (``TournamentEntered``
without cards; the decks chosen in a round only in ``TournamentFightStarted``, when they fight)."""
