"""Progression's events: immutable past-tense facts, stored in the service's event store and
published on ``arcana.progression.events``.

Streams: ``quests-<player>-<YYYY-MM-DD>`` (a player's quests of one UTC day), ``streak-<player>``,
``pass-<player>-<season>``. ``RewardGranted`` is the integration event economy credits, once per
``reward_id``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True)
class Event:
    type: ClassVar[str]

    def to_data(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class QuestsOffered(Event):
    """The day's three quests (easy, standard, hard), drawn with ``seed``."""

    type: ClassVar[str] = "QuestsOffered"
    player_id: str
    day: str
    seed: int
    quests: list[str]


@dataclass(frozen=True)
class QuestSwapped(Event):
    type: ClassVar[str] = "QuestSwapped"
    player_id: str
    day: str
    quest_id: str
    replacement: str
    seed: int


@dataclass(frozen=True)
class QuestProgressed(Event):
    """``match_id`` moved ``quest_id`` by ``amount``; ``progress`` is the new count (capped at target)."""

    type: ClassVar[str] = "QuestProgressed"
    player_id: str
    day: str
    quest_id: str
    match_id: str
    amount: int
    progress: int


@dataclass(frozen=True)
class QuestCompleted(Event):
    type: ClassVar[str] = "QuestCompleted"
    player_id: str
    day: str
    quest_id: str
    coins: int
    xp: int


@dataclass(frozen=True)
class StreakDayKept(Event):
    """The day's visit: ``streak_day`` 1..7 of the cycle; ``forgiven`` when a missed day was forgiven;
    ``forgiveness_from``: the first day a forgiveness is available (None: one is held)."""

    type: ClassVar[str] = "StreakDayKept"
    player_id: str
    day: str
    streak_day: int
    forgiven: bool
    forgiveness_from: str | None
    coins: int
    packs: int


@dataclass(frozen=True)
class PassXpEarned(Event):
    """``xp`` toward ``season_id`` from ``source`` ({"match_id"} or {"quest_id", "day"})."""

    type: ClassVar[str] = "PassXpEarned"
    player_id: str
    season_id: str
    xp: int
    source: dict[str, str]
    total_xp: int
    level: int


@dataclass(frozen=True)
class PassLevelReached(Event):
    type: ClassVar[str] = "PassLevelReached"
    player_id: str
    season_id: str
    level: int
    rewards: list[str]


@dataclass(frozen=True)
class RewardGranted(Event):
    """What economy credits, once per ``reward_id`` (``quest:<player>:<day>:<quest_id>`` or
    ``streak:<player>:<day>``)."""

    type: ClassVar[str] = "RewardGranted"
    reward_id: str
    player_id: str
    coins: int
    packs: int
    reason: str
    source: dict[str, Any]


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        QuestsOffered,
        QuestSwapped,
        QuestProgressed,
        QuestCompleted,
        StreakDayKept,
        PassXpEarned,
        PassLevelReached,
        RewardGranted,
    )
}


def event_from(type_: str, data: dict[str, Any]) -> Event:
    """The event of a stored ``type`` and ``data``. Raises ``KeyError`` for a type not of this service."""
    return EVENT_TYPES[type_](**data)


def quest_reward_id(player: str, day: str, quest_id: str) -> str:
    return f"quest:{player}:{day}:{quest_id}"


def streak_reward_id(player: str, day: str) -> str:
    return f"streak:{player}:{day}"
