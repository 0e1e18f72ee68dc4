"""Progression's commands: what a request or a consumed event asks the service to do."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from services.progression.domain.facts import MatchResult


@dataclass(frozen=True)
class SwapQuest:
    """Swap one of ``day``'s quests of ``player_id`` for another of the same difficulty."""

    player_id: str
    quest_id: str
    day: dt.date


@dataclass(frozen=True)
class RecordVisit:
    """Record a log-in on ``day`` (the first of the day keeps the streak)."""

    player_id: str
    day: dt.date


@dataclass(frozen=True)
class RecordMatch:
    """Move quests and the pass of both players of an ended match."""

    match: MatchResult
