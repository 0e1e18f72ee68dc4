"""What progression publishes for economy to pay on ``arcana.progression.events``: each reward, and
the fact it pays for (a quest completed, a streak day kept; in the same stream, just before it), which
economy keeps to check the reward against."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from libs.contracts.base import IntegrationEvent, integration_event


@integration_event("RewardGranted", version=1)
@dataclass(frozen=True)
class RewardGranted(IntegrationEvent):
    """Coins and packs to credit, once per ``reward_id`` (economy consumes it)."""

    reward_id: str = field(
        metadata={"doc": "`quest:<player>:<YYYY-MM-DD>:<quest_id>` or `streak:<player>:<YYYY-MM-DD>`"}
    )
    player_id: str = field(metadata={"doc": "the player's id"})
    coins: int = field(metadata={"doc": "coins to credit"})
    packs: int = field(metadata={"doc": "packs to hold (unopened)"})
    reason: str = field(metadata={"doc": "`quest` or `streak`"})
    source: dict[str, Any] = field(
        metadata={"doc": '`{"quest_id", "day"}` or `{"streak_day" (1..7), "day"}`'}
    )


@integration_event("QuestCompleted", version=1)
@dataclass(frozen=True)
class QuestCompleted(IntegrationEvent):
    """A quest reached its target (once per player, day and quest)."""

    player_id: str = field(metadata={"doc": "the player's id"})
    day: str = field(metadata={"doc": "the UTC day"})
    quest_id: str = field(metadata={"doc": "the quest"})
    coins: int = field(
        metadata={"doc": "coins it pays (20 / 30 / 45), granted by the RewardGranted that follows"}
    )
    xp: int = field(metadata={"doc": "pass XP it pays (80 / 120 / 180)"})


@integration_event("StreakDayKept", version=1)
@dataclass(frozen=True)
class StreakDayKept(IntegrationEvent):
    """The first log-in of a UTC day kept the streak."""

    player_id: str = field(metadata={"doc": "the player's id"})
    day: str = field(metadata={"doc": "the UTC day, YYYY-MM-DD"})
    streak_day: int = field(metadata={"doc": "the day of the 7-day cycle, 1..7"})
    forgiven: bool = field(metadata={"doc": "whether a missed day was forgiven to go on"})
    forgiveness_from: str | None = field(
        metadata={"doc": "first day a forgiveness is available again; null: one is held"}
    )
    coins: int = field(metadata={"doc": "coins it pays (days 1..6: 30 / 40 / 50 / 60 / 75 / 100)"})
    packs: int = field(metadata={"doc": "packs it pays (1 on day 7)"})
