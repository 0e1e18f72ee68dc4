"""Progression's pure domain (standard library only): daily quests, the login streak, the season
pass, the line's arena XP and training battles, their events and errors. Dates are passed in;
randomness comes in as seeds written into events.
"""

from services.progression.domain import quests, season_pass, streak, track
from services.progression.domain.catalog import QUESTS, Quest, Season, season_by_id, season_of
from services.progression.domain.commands import RecordMatch, RecordVisit, SwapQuest
from services.progression.domain.errors import (
    ProgressionError,
    QuestAlreadyCompleted,
    QuestNotOffered,
    RewardAlreadyGranted,
    SwapAlreadyUsed,
)
from services.progression.domain.facts import MatchResult
from services.progression.events import EVENT_TYPES, Event, RewardGranted

__all__ = [
    "EVENT_TYPES",
    "QUESTS",
    "Event",
    "MatchResult",
    "ProgressionError",
    "Quest",
    "QuestAlreadyCompleted",
    "QuestNotOffered",
    "RecordMatch",
    "RecordVisit",
    "RewardAlreadyGranted",
    "RewardGranted",
    "Season",
    "SwapAlreadyUsed",
    "SwapQuest",
    "quests",
    "season_by_id",
    "season_of",
    "season_pass",
    "streak",
    "track",
]
