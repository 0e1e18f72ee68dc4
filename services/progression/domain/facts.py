"""What a ``MatchEnded`` reports, read for progression: whether it counts, each player's counts, XP.

Only ranked and casual matches that reached turn 4 count (docs/rules.md); practice and operator matches
count nothing. The day of a match is the UTC date of the event's ``occurred_at``, given by the caller.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from libs.contracts.match import MatchEnded
from services.progression.domain.catalog import Quest

COUNTING_MODES: Final = ("ranked", "casual")
MIN_TURNS: Final = 4
XP_WIN, XP_LOSS, XP_DRAW = 60, 25, 25


@dataclass(frozen=True)
class MatchResult:
    """The parts of one MatchEnded that progression reads."""

    match_id: str
    mode: str
    day: dt.date
    players: tuple[str, ...]
    winner: str | None
    draw: bool
    turns: int
    bot: str | None
    stats: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @classmethod
    def from_event(cls, ended: MatchEnded, day: dt.date) -> MatchResult:
        """The parts of a decoded ``MatchEnded`` that progression reads."""
        return cls(
            match_id=ended.match_id,
            mode=ended.mode,
            day=day,
            players=tuple(ended.players),
            winner=None if ended.draw else ended.winner,
            draw=ended.draw,
            turns=ended.turns,
            bot=ended.bot,
            stats=dict(ended.stats),
        )

    @property
    def counts(self) -> bool:
        """Whether this match pays and moves anything."""
        return self.mode in COUNTING_MODES and self.turns >= MIN_TURNS

    def humans(self) -> list[str]:
        return [p for p in self.players if p != self.bot]

    def xp_for(self, player: str) -> int:
        if self.draw:
            return XP_DRAW
        return XP_WIN if player == self.winner else XP_LOSS

    def count(self, quest: Quest, player: str) -> int:
        """How much this match moves ``quest`` for ``player`` (0 when it does not count)."""
        if not self.counts or player not in self.players:
            return 0
        if quest.fact == "matches":
            return 1
        if quest.fact == "wins":
            return int(player == self.winner)
        mine = self.stats.get(player) or {}
        if quest.fact == "wins_going_second":  # went_first absent (older matches): not known, not counted
            return int(player == self.winner and mine.get("went_first") is False)
        if quest.fact == "units_played":
            by_tribe = mine.get("units_played") or {}
            if quest.tribe is None:
                return sum(int(n) for n in by_tribe.values())
            return int(by_tribe.get(quest.tribe, 0))
        return int(mine.get(quest.fact, 0))
