"""What a ``MatchEnded`` reports, read for progression: for whom it counts, each player's counts, XP.

For whom it gives XP and moves quests is the match's published verdict (``libs.fairplay``; docs/rules.md,
"Fair play": ranked and casual from turn 4, the repeat-opponent rule, no pay for an early ranked
concede); practice and operator matches count nothing. The day of a match is the UTC date of the
event's ``occurred_at``, given by the caller.

What a match of each game moves is its offer's ``Progress`` (``libs.games.offer``, found by the game's
name in ``libs.games.registry``): whether it gives pass XP (the first placement group wins, every other
place loses; the line gives none: its XP is on a track of its own, ``track.py``), the quest facts it
reports (Arcana every one; the arena and the line only ``matches`` and ``wins``, never units, spells,
hero damage, draws, kills, going second), and whether a practice match moves quests (not the line's,
a fight resolved at once against a bot). A game's finished practice matches are training battles when
its queue's offer says they unlock ranked.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from libs import fairplay
from libs.contracts.match import MatchEnded
from libs.games import registry
from libs.games.offer import Offer, Progress
from services.progression.domain.catalog import Quest

XP_WIN, XP_LOSS, XP_DRAW = 60, 25, 25
SHARED_FACTS = ("matches", "wins")  # what every game reports
EVERYTHING = Progress()  # a match built without its game's offer: pass XP and every quest fact
UNKNOWN = Offer(progress=Progress(pass_xp=False, facts=SHARED_FACTS))  # a game not hosted here


def offer_of(game: str) -> Offer:
    """What ``game`` offers (a game not hosted here: no pass XP, the shared quest facts only)."""
    try:
        return registry.offer(game)
    except registry.UnknownGame:
        return UNKNOWN


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
    game: str = registry.DEFAULT_GAME
    placements: tuple[tuple[str, ...], ...] = ()  # groups, best first (empty: read the winner)
    training: frozenset[str] = frozenset()  # the players it is a training battle of
    progress: Progress = EVERYTHING  # what a match of its game moves (its offer's)

    @classmethod
    def from_event(cls, ended: MatchEnded, day: dt.date) -> MatchResult:
        """The parts of a decoded ``MatchEnded`` that progression reads."""
        offer = offer_of(ended.game)
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
            counting=frozenset(
                p for p, v in fairplay.verdicts_of(ended.data(), offer.fair_play).items() if v.xp
            ),
            game=ended.game,
            placements=tuple(tuple(group) for group in ended.placements),
            training=frozenset(ended.practice_humans() if offer.queue.trains else ()),
            progress=offer.progress,
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
        """Whether it may move quests at all: not a practice match of a game whose practice does not."""
        return self.progress.quests_in_practice or self.mode != "practice"

    def quest_players(self) -> list[str]:
        """The players whose quests and pass it moves, in the match's order."""
        return self.counted_players() if self.moves_quests else []

    def track_players(self) -> list[str]:
        """The players whose progress on its game's own track it moves (its XP, a training battle);
        none for a game without a track."""
        if self.progress.track is None:
            return []
        return [p for p in self.humans() if self.training_battle_for(p) or self.counts_for(p)]

    def training_battle_for(self, player: str) -> bool:
        """Whether it is a training battle of ``player``: a practice match of a game whose training
        battles unlock ranked, won or lost."""
        return player in self.training

    def won(self, player: str) -> bool:
        """Whether ``player`` won: the winner, or in the arena anyone of the first placement group."""
        if self.draw:
            return False
        if self.placements:
            return player in self.placements[0]
        return player == self.winner

    def xp_for(self, player: str) -> int:
        """The pass XP it gives ``player`` (none from a game whose offer gives none)."""
        if not self.progress.pass_xp:
            return 0
        if self.draw:
            return XP_DRAW
        return XP_WIN if self.won(player) else XP_LOSS

    def count(self, quest: Quest, player: str) -> int:
        """How much this match moves ``quest`` for ``player`` (0 when it does not count)."""
        if not self.counts_for(player) or not self.moves_quests:
            return 0
        facts = self.progress.facts
        if facts is not None and quest.fact not in facts:
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
