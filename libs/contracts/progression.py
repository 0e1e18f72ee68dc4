"""What progression publishes for economy to pay on ``arcana.progression.events``."""

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
