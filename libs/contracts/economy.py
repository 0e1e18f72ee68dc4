"""The economy event other services consume (matchmaking and match keep each player's active deck)."""

from __future__ import annotations

from dataclasses import dataclass, field

from libs.contracts.base import IntegrationEvent, integration_event


@integration_event("ActiveDeckChanged", version=1)
@dataclass(frozen=True)
class ActiveDeckChanged(IntegrationEvent):
    """The player's active deck and its legality now; keep the last one per player."""

    player_id: str = field(metadata={"doc": "the player"})
    deck_id: str = field(metadata={"doc": "the active deck's id"})
    name: str = field(metadata={"doc": "its name"})
    cards: list[str] = field(metadata={"doc": "its card ids"})
    legal: bool = field(metadata={"doc": "whether it may be played now"})
    problems: list[str] = field(metadata={"doc": "every reason it is not legal (empty when legal)"})
    game: str = field(
        default="arcana",
        metadata={
            "doc": "the game the deck is for (one active deck per player and game; `arcana` when absent)"
        },
    )
