"""What ratings publishes on ``arcana.ratings.events`` (matchmaking pairs ranked tickets by it)."""

from __future__ import annotations

from dataclasses import dataclass, field

from libs.contracts.base import IntegrationEvent, integration_event


@integration_event("RatingChanged", version=1)
@dataclass(frozen=True)
class RatingChanged(IntegrationEvent):
    """A counted ranked match moved a player's rating (stream `rating-<player>`, one per match)."""

    player_id: str = field(metadata={"doc": "the player's id"})
    match_id: str = field(metadata={"doc": "the ranked match that moved it"})
    before: int = field(metadata={"doc": "the rating before the match"})
    after: int = field(
        metadata={
            "doc": "the rating after it (Arcana: not below the highest tier's floor; the line: not below 0)"
        }
    )
    tier: str = field(
        metadata={
            "doc": "the tier of `after`: bronze, silver, gold, platinum, diamond, arcane (`none` on the line)"
        }
    )
    highest_tier: str = field(
        metadata={"doc": "the highest tier ever reached (its floor holds the rating; `none` on the line)"}
    )
    delta: int = field(metadata={"doc": "`after - before`"})
    result: str = field(metadata={"doc": "`win` or `loss` (draws change nothing)"})
    game: str = field(
        default="arcana",
        metadata={
            "doc": "whose ladder moved: `arcana` (the rating) or `line` (its MMR); `arcana` when absent"
        },
    )
