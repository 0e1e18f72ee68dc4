"""What ratings publishes on ``arcana.ratings.events`` (declared once; see docs/events.md)."""

from __future__ import annotations

from dataclasses import dataclass, field

from libs.contracts.audit import OperatorActed
from libs.contracts.ratings import RatingChanged, RatingChangeVoided
from libs.games.registry import DEFAULT_GAME
from libs.kit.events import EventCatalog, IntegrationEvent, integration_event

TOPIC = "arcana.ratings.events"


@integration_event("RatingUnchanged", version=1)
@dataclass(frozen=True)
class RatingUnchanged(IntegrationEvent):
    """A ranked match moved nothing for this player (stream `rating-<player>`, one per match), and why:
    the rating history shows it."""

    player_id: str = field(metadata={"doc": "the player's id"})
    match_id: str = field(metadata={"doc": "the ranked match"})
    rating: int = field(metadata={"doc": "the rating, as before the match"})
    tier: str = field(metadata={"doc": "its tier"})
    highest_tier: str = field(metadata={"doc": "the highest tier ever reached"})
    result: str = field(metadata={"doc": "`win`, `loss` or `draw`: the match's result for the player"})
    reason: str = field(
        metadata={
            "doc": "why nothing moved: `repeat_opponent` (the pair's 4th match or later of the UTC day), "
            "`early_concede` (the other player conceded or forfeited before turn 4), `too_short` "
            "(ended before turn 4 otherwise) or `draw`"
        }
    )
    game: str = field(
        default=DEFAULT_GAME,
        metadata={"doc": "whose ladder: `arcana` (the rating) or `line` (its MMR); `arcana` when absent"},
    )


CATALOG = EventCatalog(
    "ratings",
    TOPIC,
    (RatingChanged, RatingUnchanged, RatingChangeVoided, OperatorActed),
    "Ranked ladders, one per game: Arcana's rating (a hidden Elo rating, zero-sum, K 40 for 30 games "
    "then 24, start 900, under the visible ladder points that follow it), stream "
    "`rating-<player>`; the line's MMR (start 1,000, win +2, loss -1, never below 0), stream "
    "`line-rating-<player>`. Operators' voids of a match's rating change in the stream `audit`.",
)
