"""What ratings publishes on ``arcana.ratings.events`` (matchmaking pairs ranked tickets by it, and
follows an operator's void of a rating change)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from libs.contracts.base import FIRST_GAME, IntegrationEvent, integration_event

FLOOR = "floor"  # a RatingChanged's reason: the tier floor held the visible points on a loss


def hidden_as_visible(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 -> 2: before the hidden rating existed, the one rating was both (no reason)."""
    return {"hidden_before": data.get("before"), "hidden_after": data.get("after"), **data}


@integration_event("RatingChanged", version=2)
@dataclass(frozen=True)
class RatingChanged(IntegrationEvent):
    """A counted ranked match moved a player's rating (stream `rating-<player>`, one per match): the
    visible ladder points (`before`, `after`, `delta`) and the hidden rating that pairs players and
    decides gains (`hidden_before`, `hidden_after`; zero-sum between the match's two players)."""

    UPCASTERS = {1: hidden_as_visible}  # 1: one rating, visible and hidden alike

    player_id: str = field(metadata={"doc": "the player's id"})
    match_id: str = field(metadata={"doc": "the ranked match that moved it"})
    before: int = field(metadata={"doc": "the visible rating (ladder points) before the match"})
    after: int = field(
        metadata={
            "doc": "the visible rating after it (Arcana: not below the highest tier's floor; the line: "
            "not below 0)"
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
    hidden_before: int = field(
        metadata={"doc": "the hidden rating before the match (version 1: `before`)", "since": 2}
    )
    hidden_after: int = field(
        metadata={
            "doc": "the hidden rating after it: what ranked pairing uses; no floor (version 1: `after`)",
            "since": 2,
        }
    )
    game: str = field(
        default=FIRST_GAME,
        metadata={
            "doc": "whose ladder moved: `arcana` (the rating) or `line` (its MMR); `arcana` when absent"
        },
    )
    reason: str | None = field(
        default=None,
        metadata={
            "doc": "`floor` when the tier floor held the visible rating on a loss (the hidden one still "
            "fell); null otherwise",
            "since": 2,
        },
    )


@integration_event("RatingChangeVoided", version=1)
@dataclass(frozen=True)
class RatingChangeVoided(IntegrationEvent):
    """An operator voided what a ranked match moved for this player (stream `rating-<player>`): the
    compensating event of its `RatingChanged`, which stays as it was. The visible and hidden ratings
    move back by that change's amounts; the win or loss no longer counts; the highest tier reached
    stays. Why and by whom: ratings' `audit` stream (`OperatorActed`)."""

    player_id: str = field(metadata={"doc": "the player's id"})
    match_id: str = field(metadata={"doc": "the ranked match whose change is voided"})
    before: int = field(metadata={"doc": "the visible rating before the void"})
    after: int = field(metadata={"doc": "the visible rating after it: `before` minus the voided delta"})
    hidden_before: int = field(metadata={"doc": "the hidden rating before the void"})
    hidden_after: int = field(metadata={"doc": "the hidden rating after it, minus the voided hidden step"})
    tier: str = field(metadata={"doc": "the tier of `after` (`none` on the line)"})
    result: str = field(metadata={"doc": "the voided change's result: `win` or `loss` (no longer counted)"})
    game: str = field(default=FIRST_GAME, metadata={"doc": "whose ladder: `arcana` or `line`"})
