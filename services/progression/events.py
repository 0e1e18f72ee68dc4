"""What progression publishes on ``arcana.progression.events`` (declared once; see docs/events.md).

Streams: ``quests-<player>-<YYYY-MM-DD>`` (a player's quests of one UTC day), ``streak-<player>``,
``pass-<player>-<season>``, ``line-<player>`` (the line's arena XP and training battles).
``RewardGranted`` is what economy credits, once per ``reward_id``. These are also the domain's own
events (standard library only: the domain folds them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from libs.contracts.progression import QuestCompleted, RewardGranted, StreakDayKept
from libs.kit.events import EventCatalog, IntegrationEvent, integration_event

TOPIC = "arcana.progression.events"

Event = IntegrationEvent


@integration_event("QuestsOffered", version=1)
@dataclass(frozen=True)
class QuestsOffered(IntegrationEvent):
    """A player's three quests of a UTC day (easy, standard, hard), drawn once with ``seed``."""

    player_id: str = field(metadata={"doc": "the player's id"})
    day: str = field(metadata={"doc": "the UTC day, YYYY-MM-DD"})
    seed: int = field(metadata={"doc": "the seed the draw used (written, never drawn again on replay)"})
    quests: list[str] = field(metadata={"doc": "the quest ids, easy, standard, hard"})


@integration_event("QuestSwapped", version=1)
@dataclass(frozen=True)
class QuestSwapped(IntegrationEvent):
    """The day's one swap: ``quest_id`` replaced by another quest of its difficulty."""

    player_id: str = field(metadata={"doc": "the player's id"})
    day: str = field(metadata={"doc": "the UTC day, YYYY-MM-DD"})
    quest_id: str = field(metadata={"doc": "the quest given up"})
    replacement: str = field(metadata={"doc": "the quest offered instead (progress 0)"})
    seed: int = field(metadata={"doc": "the seed the draw used"})


@integration_event("QuestProgressed", version=1)
@dataclass(frozen=True)
class QuestProgressed(IntegrationEvent):
    """A counting match moved a quest."""

    player_id: str = field(metadata={"doc": "the player's id"})
    day: str = field(metadata={"doc": "the UTC day the match ended"})
    quest_id: str = field(metadata={"doc": "the quest"})
    match_id: str = field(metadata={"doc": "the match that moved it (counted once)"})
    amount: int = field(metadata={"doc": "what the match counted for it"})
    progress: int = field(metadata={"doc": "the progress now, at most the quest's target"})


@integration_event("PassXpEarned", version=1)
@dataclass(frozen=True)
class PassXpEarned(IntegrationEvent):
    """Season pass XP from a match or a completed quest (each source once)."""

    player_id: str = field(metadata={"doc": "the player's id"})
    season_id: str = field(metadata={"doc": "the season of the day the match ended"})
    xp: int = field(metadata={"doc": "XP earned"})
    source: dict[str, str] = field(metadata={"doc": '`{"match_id"}` or `{"quest_id", "day"}`'})
    total_xp: int = field(metadata={"doc": "the player's XP in the season now"})
    level: int = field(metadata={"doc": "the level now (0..30; 600 XP each)"})


@integration_event("PassLevelReached", version=1)
@dataclass(frozen=True)
class PassLevelReached(IntegrationEvent):
    """A pass level reached, and the cosmetics it unlocks."""

    player_id: str = field(metadata={"doc": "the player's id"})
    season_id: str = field(metadata={"doc": "the season"})
    level: int = field(metadata={"doc": "1..30"})
    rewards: list[str] = field(metadata={"doc": "cosmetic ids unlocked (card backs, avatars, titles)"})


@integration_event("ArenaXpEarned", version=1)
@dataclass(frozen=True)
class ArenaXpEarned(IntegrationEvent):
    """The line's arena XP from a line match whose verdict gives the player XP (a win in training or
    casual), once per match; a track of its own, apart from the season pass."""

    player_id: str = field(metadata={"doc": "the player's id"})
    match_id: str = field(metadata={"doc": "the line match (counted once)"})
    xp: int = field(metadata={"doc": "arena XP earned (20 a win)"})
    arena_xp: int = field(metadata={"doc": "the player's arena XP now"})


@integration_event("TrainingBattleFought", version=1)
@dataclass(frozen=True)
class TrainingBattleFought(IntegrationEvent):
    """A line practice match (against a bot) finished, won or lost: a training battle, once per match
    (3 unlock the line's ranked queue)."""

    player_id: str = field(metadata={"doc": "the player's id"})
    match_id: str = field(metadata={"doc": "the line practice match (counted once)"})
    won: bool = field(metadata={"doc": "whether the player won it"})
    training_battles: int = field(metadata={"doc": "the player's training battles now"})


EVENTS: tuple[type[IntegrationEvent], ...] = (
    QuestsOffered,
    QuestSwapped,
    QuestProgressed,
    QuestCompleted,
    StreakDayKept,
    PassXpEarned,
    PassLevelReached,
    RewardGranted,
    ArenaXpEarned,
    TrainingBattleFought,
)
EVENT_TYPES: dict[str, type[IntegrationEvent]] = {cls.TYPE: cls for cls in EVENTS}

CATALOG = EventCatalog(
    "progression",
    TOPIC,
    EVENTS,
    "Daily quests, login streak, season pass and the rewards they pay; the line's arena XP and training "
    "battles. Streams `quests-<player>-<day>`, `streak-<player>`, `pass-<player>-<season>`, "
    "`line-<player>`.",
)


def quest_reward_id(player: str, day: str, quest_id: str) -> str:
    return f"quest:{player}:{day}:{quest_id}"


def streak_reward_id(player: str, day: str) -> str:
    return f"streak:{player}:{day}"
