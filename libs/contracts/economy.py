"""The economy events other services consume: the player's active deck per game.

Two forms of one fact, ``ActiveDeckChanged`` (issue 34, finding 2: no deck list on a topic the
analysts read before the match that plays it has ended):

- ``ActiveDeckChanged`` (version 2) on ``arcana.economy.events``, which every service and the
  analysts read: which deck is active and whether it is legal, never its cards (matchmaking keeps
  it; a ticket names the deck by id and the version of the event that made it active);
- ``ActiveDeckChangedInFull`` (version 1, as economy stores it) on ``DECKS_TOPIC``, which only the
  match service may read (its Kafka user; the analysts' user has no access): the same event with its
  cards, the deck a match plays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from libs.contracts.base import FIRST_GAME, IntegrationEvent, integration_event

DECKS_TOPIC = "arcana.economy.decks"

_GAME_DOC = "the game the deck is for (one active deck per player and game; `arcana` when absent)"


@integration_event("ActiveDeckChanged", version=1)
@dataclass(frozen=True)
class ActiveDeckChangedInFull(IntegrationEvent):
    """The player's active deck with its cards and its legality now; keep the last one per player
    and game. Only on ``arcana.economy.decks`` (the match service's to read)."""

    player_id: str = field(metadata={"doc": "the player"})
    deck_id: str = field(metadata={"doc": "the active deck's id"})
    name: str = field(metadata={"doc": "its name"})
    cards: list[str] = field(metadata={"doc": "its card ids"})
    legal: bool = field(metadata={"doc": "whether it may be played now"})
    problems: list[str] = field(metadata={"doc": "every reason it is not legal (empty when legal)"})
    game: str = field(default=FIRST_GAME, metadata={"doc": _GAME_DOC})


def _cards_left_out(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "cards"}


@integration_event("ActiveDeckChanged", version=2)
@dataclass(frozen=True)
class ActiveDeckChanged(IntegrationEvent):
    """Which deck of the player is active now and its legality, without its cards (version 1 listed
    them; read without them); keep the last one per player and game. The event's version in
    economy's deck stream names the deck's version (a ticket's ``deck_version``)."""

    UPCASTERS = {1: _cards_left_out}  # 1: listed the cards

    player_id: str = field(metadata={"doc": "the player"})
    deck_id: str = field(metadata={"doc": "the active deck's id"})
    name: str = field(metadata={"doc": "its name"})
    legal: bool = field(metadata={"doc": "whether it may be played now"})
    problems: list[str] = field(metadata={"doc": "every reason it is not legal (empty when legal)"})
    game: str = field(default=FIRST_GAME, metadata={"doc": _GAME_DOC})
