"""What a ``MatchEnded`` reports, read for progression: for whom it counts, each player's counts, XP.

For whom it gives XP and moves quests is the match's published verdict (``libs.fairplay``; docs/rules.md,
"Fair play": ranked and casual from turn 4, the repeat-opponent rule, no pay for an early ranked
concede); practice and operator matches count nothing. The day of a match is the UTC date of the
event's ``occurred_at``, given by the caller.

The games after Arcana: an arena match gives pass XP like a casual Arcana match (the first placement
group wins, every other place loses); a line match gives no pass XP (its XP is the line's arena XP,
``line.py``). Quests count only what every game reports: an arena match or a line PvP match moves the
``matches`` and ``wins`` quests, never an Arcana-only one (units, spells, hero damage, draws, kills,
going second); line practice (a bot, a fight resolved at once) moves no quest.
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
ARCANA, LINE = "arcana", "line"
PASS_XP_GAMES = (ARCANA, "arena")  # the line's XP is arena XP, not pass XP
SHARED_FACTS = ("matches", "wins")  # what every game reports; the other facts are Arcana's


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
    game: str = ARCANA
    placements: tuple[tuple[str, ...], ...] = ()  # groups, best first (empty: read the winner)
    training: frozenset[str] = frozenset()  # the players it is a training battle of (the line's)

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
            game=ended.game,
            placements=tuple(tuple(group) for group in ended.placements),
            training=frozenset(ended.training_battle_players()),
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

    @property
    def moves_quests(self) -> bool:
        """Whether it may move quests at all: not a line practice match."""
        return not (self.game == LINE and self.mode == "practice")

    def quest_players(self) -> list[str]:
        """The players whose quests and pass it moves, in the match's order."""
        return self.counted_players() if self.moves_quests else []

    def line_players(self) -> list[str]:
        """The players of a line match whose line progress it moves (arena XP, a training battle)."""
        if self.game != LINE:
            return []
        return [p for p in self.humans() if self.training_battle_for(p) or self.counts_for(p)]

    def training_battle_for(self, player: str) -> bool:
        """Whether it is a training battle of ``player``: a line practice match, won or lost."""
        return player in self.training

    def won(self, player: str) -> bool:
        """Whether ``player`` won: the winner, or in the arena anyone of the first placement group."""
        if self.draw:
            return False
        if self.placements:
            return player in self.placements[0]
        return player == self.winner

    def xp_for(self, player: str) -> int:
        """The pass XP it gives ``player`` (none from the line)."""
        if self.game not in PASS_XP_GAMES:
            return 0
        if self.draw:
            return XP_DRAW
        return XP_WIN if self.won(player) else XP_LOSS

    def count(self, quest: Quest, player: str) -> int:
        """How much this match moves ``quest`` for ``player`` (0 when it does not count)."""
        if not self.counts_for(player) or not self.moves_quests:
            return 0
        if self.game != ARCANA and quest.fact not in SHARED_FACTS:
            return 0
        if quest.fact == "matches":
            return 1
        if quest.fact == "wins":
            return int(self.won(player))
        mine = self.stats.get(player) or {}
        if quest.fact == "wins_going_second":  # went_first absent (older matches): not known, not counted
            return int(player == self.winner and mine.get("went_first") is False)
        if quest.fact == "units_played":
            by_tribe = mine.get("units_played") or {}
            if quest.tribe is None:
                return sum(int(n) for n in by_tribe.values())
            return int(by_tribe.get(quest.tribe, 0))
        return int(mine.get(quest.fact, 0))
