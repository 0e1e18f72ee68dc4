"""The quest pool and the seasons with their pass tracks, read from ``services/progression/data``.

Standard library only. A quest is a counter over one fact a ``MatchEnded`` reports (see
``facts.FACTS``) with a target; a season has inclusive UTC ``start`` and ``end`` dates and a
30-level track of cosmetics.
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

DATA: Final = Path(__file__).resolve().parent.parent / "data"
DIFFICULTIES: Final = ("easy", "standard", "hard")
QUEST_REWARDS: Final = {"easy": (20, 80), "standard": (30, 120), "hard": (45, 180)}  # (coins, XP)
TRACK_LEVELS: Final = 30
COSMETIC_KINDS: Final = ("card_back", "avatar", "title")
FACTS: Final = (
    "matches",
    "wins",
    "wins_going_second",
    "units_played",
    "spells_cast",
    "hero_damage",
    "cards_drawn",
    "units_killed",
)


@dataclass(frozen=True)
class Quest:
    """One quest of the pool: count ``fact`` (optionally of one ``tribe``) up to ``target``."""

    id: str
    difficulty: str
    title: str
    fact: str
    tribe: str | None
    target: int

    @property
    def coins(self) -> int:
        return QUEST_REWARDS[self.difficulty][0]

    @property
    def xp(self) -> int:
        return QUEST_REWARDS[self.difficulty][1]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "difficulty": self.difficulty,
            "title": self.title,
            "target": self.target,
            "coins": self.coins,
            "xp": self.xp,
        }


@dataclass(frozen=True)
class TrackLevel:
    level: int
    kind: str
    id: str
    name: str


@dataclass(frozen=True)
class Season:
    """A season: ``start`` and ``end`` are inclusive UTC dates."""

    id: str
    name: str
    start: dt.date
    end: dt.date
    track: tuple[TrackLevel, ...]

    def holds(self, day: dt.date) -> bool:
        return self.start <= day <= self.end

    def rewards_up_to(self, level: int) -> list[TrackLevel]:
        return [t for t in self.track if t.level <= level]


def _quest(row: Mapping[str, Any]) -> Quest:
    counter = row["counter"]
    quest = Quest(
        row["id"], row["difficulty"], row["title"], counter["fact"], counter.get("tribe"), row["target"]
    )
    if quest.difficulty not in DIFFICULTIES or quest.target < 1 or quest.fact not in FACTS:
        raise ValueError(f"bad quest {quest.id!r}: difficulty, target or fact")
    return quest


def load_quests(path: Path = DATA / "quests.json") -> dict[str, Quest]:
    """The pool, by id. Raises ``ValueError`` unless it holds 5 quests of each difficulty."""
    quests = [_quest(row) for row in json.loads(path.read_text(encoding="utf-8"))]
    pool = {q.id: q for q in quests}
    for difficulty in DIFFICULTIES:
        if sum(q.difficulty == difficulty for q in pool.values()) != 5:
            raise ValueError(f"{path}: the pool must hold 5 {difficulty} quests")
    return pool


def _season(row: Mapping[str, Any]) -> Season:
    track = tuple(TrackLevel(t["level"], t["kind"], t["id"], t["name"]) for t in row["track"])
    season = Season(
        row["id"], row["name"], dt.date.fromisoformat(row["start"]), dt.date.fromisoformat(row["end"]), track
    )
    if [t.level for t in track] != list(range(1, TRACK_LEVELS + 1)):
        raise ValueError(f"season {season.id}: the track must have levels 1..{TRACK_LEVELS}")
    if any(t.kind not in COSMETIC_KINDS for t in track) or season.end < season.start:
        raise ValueError(f"season {season.id}: cosmetics only, end on or after start")
    return season


def load_seasons(path: Path = DATA / "seasons.json") -> tuple[Season, ...]:
    """Seasons in date order. Raises ``ValueError`` when two overlap."""
    rows = json.loads(path.read_text(encoding="utf-8"))
    seasons = tuple(sorted((_season(r) for r in rows), key=lambda s: s.start))
    for before, after in itertools.pairwise(seasons):
        if after.start <= before.end:
            raise ValueError(f"seasons {before.id} and {after.id} overlap")
    return seasons


QUESTS: Final[Mapping[str, Quest]] = load_quests()
SEASONS: Final[tuple[Season, ...]] = load_seasons()


def season_of(day: dt.date, seasons: tuple[Season, ...] = SEASONS) -> Season | None:
    """The season holding ``day``, or None between or outside seasons."""
    return next((s for s in seasons if s.holds(day)), None)


def season_by_id(season_id: str) -> Season | None:
    return next((s for s in SEASONS if s.id == season_id), None)


def pool_of(difficulty: str) -> list[Quest]:
    return sorted((q for q in QUESTS.values() if q.difficulty == difficulty), key=lambda q: q.id)
