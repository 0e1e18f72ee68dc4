"""A player's season pass in one season: the fold of ``pass-<player>-<season>``.

600 XP per level, flat, 30 levels; XP past level 30 is kept and grants nothing. Each source of XP
(a match, a completed quest) counts once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from services.progression.domain.catalog import TRACK_LEVELS, Season
from services.progression.events import Event, PassLevelReached, PassXpEarned

XP_PER_LEVEL: Final = 600


def pass_stream(player: str, season_id: str) -> str:
    return f"pass-{player}-{season_id}"


def level_of(xp: int) -> int:
    return min(TRACK_LEVELS, xp // XP_PER_LEVEL)


def xp_into_level(xp: int) -> int:
    """XP past the current level's threshold (past level 30: everything above 30 levels)."""
    return xp - level_of(xp) * XP_PER_LEVEL


def source_key(source: dict[str, str]) -> str:
    return "|".join(f"{k}={source[k]}" for k in sorted(source))


@dataclass
class SeasonPass:
    player_id: str
    season_id: str
    xp: int = 0
    sources: set[str] = field(default_factory=set)
    version: int = 0

    @property
    def level(self) -> int:
        return level_of(self.xp)


def evolve(state: SeasonPass, event: Event) -> SeasonPass:
    if isinstance(event, PassXpEarned):
        state.xp = event.total_xp
        state.sources.add(source_key(event.source))
    state.version += 1
    return state


def fold(player: str, season_id: str, events: Iterable[Event]) -> SeasonPass:
    state = SeasonPass(player, season_id)
    for event in events:
        evolve(state, event)
    return state


def earn(state: SeasonPass, season: Season, xp: int, source: dict[str, str]) -> list[Event]:
    """``xp`` from ``source``, and the levels it reaches; nothing when that source counted already."""
    if xp <= 0 or source_key(source) in state.sources:
        return []
    total = state.xp + xp
    before, after = state.level, level_of(total)
    events: list[Event] = [PassXpEarned(state.player_id, state.season_id, xp, dict(source), total, after)]
    for level in range(before + 1, after + 1):
        rewards = [t.id for t in season.track if t.level == level]
        events.append(PassLevelReached(state.player_id, state.season_id, level, rewards))
    return events
