"""What a ``MatchEnded`` reports, read for progression: for whom it counts, each player's counts, XP.

For whom it gives XP and moves quests is the match's published verdict (``libs.fairplay``; docs/rules.md,
"Fair play": ranked and casual from turn 4, the repeat-opponent rule, no pay for an early ranked
concede); practice and operator matches count nothing. The day of a match is the UTC date of the
event's ``occurred_at``, given by the caller.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from libs import fairplay
from libs.contracts.match import MatchEnded
from services.progression.domain.catalog import Quest

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
    counting: frozenset[str] = frozenset()  # the players the match gives XP and quests to

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
            counting=frozenset(p for p, v in fairplay.verdicts_of(ended.data()).items() if v.xp),
        )

    @property
    def counts(self) -> bool:
        """Whether this match gives anyone XP or quest progress."""
        return bool(self.counting)

    def counts_for(self, player: str) -> bool:
        return player in self.counting

    def humans(self) -> list[str]:
        return [p for p in self.players if p != self.bot]

    def counted_players(self) -> list[str]:
        """The players it gives XP and quest progress, in the match's order."""
        return [p for p in self.humans() if p in self.counting]

    def xp_for(self, player: str) -> int:
        if self.draw:
            return XP_DRAW
        return XP_WIN if player == self.winner else XP_LOSS

    def count(self, quest: Quest, player: str) -> int:
        """How much this match moves ``quest`` for ``player`` (0 when it does not count)."""
        if not self.counts_for(player):
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
