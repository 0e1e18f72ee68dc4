"""The quest pool (``services/progression/data/quests.json``) and the seasons with their pass
tracks, by rule.

Standard library only. A quest is a counter over one fact a ``MatchEnded`` reports (see
``facts.FACTS``) with a target. A season is a UTC calendar quarter from the first, 2026-q1, on,
forever (no table of dates that can run out): id ``YYYY-qN``, inclusive ``start`` and ``end``
dates, named after the Major Arcana in order, one per season, cycling (2026-q1 the Fool, 2026-q4
the Empress, 2031-q3 the Fool again), and a 30-level track of cosmetics: a card back, an avatar
and a title in turn, each named after the season's arcana.
"""

from __future__ import annotations

import datetime as dt
import json
import re
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


FIRST_SEASON_YEAR: Final = 2026  # 2026-q1 is the first season; days before it have none
MAJOR_ARCANA: Final = (
    "the Fool",
    "the Magician",
    "the Priestess",
    "the Empress",
    "the Emperor",
    "the Hierophant",
    "the Lovers",
    "the Chariot",
    "Strength",
    "the Hermit",
    "the Wheel of Fortune",
    "Justice",
    "the Hanged Man",
    "Death",
    "Temperance",
    "the Devil",
    "the Tower",
    "the Star",
    "the Moon",
    "the Sun",
    "Judgement",
    "the World",
)
TITLE_RANKS: Final = (
    "Novice",
    "Adept",
    "Seeker",
    "Keeper",
    "Sage",
    "Oracle",
    "Herald",
    "Warden",
    "Mystic",
    "Ascendant",
)
_SEASON_ID = re.compile(r"(\d{4})-q([1-4])")


def _track(year: int, quarter: int, arcana: str) -> tuple[TrackLevel, ...]:
    short = arcana.removeprefix("the ")
    levels = []
    for level in range(1, TRACK_LEVELS + 1):
        kind, nth = COSMETIC_KINDS[(level - 1) % 3], (level - 1) // 3 + 1
        name = (
            f"{short} {TITLE_RANKS[nth - 1]}"
            if kind == "title"
            else f"{short} {kind.replace('_', ' ')} {nth}"
        )
        levels.append(TrackLevel(level, kind, f"{year}q{quarter}-{kind}-{level}", name))
    return tuple(levels)


def season_in(year: int, quarter: int) -> Season | None:
    """The season of a calendar quarter (1..4), or None before the first season."""
    if year < FIRST_SEASON_YEAR or not 1 <= quarter <= 4:
        return None
    arcana = MAJOR_ARCANA[((year - FIRST_SEASON_YEAR) * 4 + quarter - 1) % len(MAJOR_ARCANA)]
    start = dt.date(year, 3 * quarter - 2, 1)
    end = dt.date(year + 1, 1, 1) if quarter == 4 else dt.date(year, 3 * quarter + 1, 1)
    track = _track(year, quarter, arcana)
    return Season(f"{year}-q{quarter}", f"Season of {arcana}", start, end - dt.timedelta(days=1), track)


QUESTS: Final[Mapping[str, Quest]] = load_quests()


def season_of(day: dt.date) -> Season | None:
    """The season holding the UTC date ``day`` (every day from 2026-01-01 on), or None before."""
    return season_in(day.year, (day.month - 1) // 3 + 1)


def season_by_id(season_id: str) -> Season | None:
    """The season ``YYYY-qN``, or None for anything else (or before the first season)."""
    found = _SEASON_ID.fullmatch(season_id)
    return season_in(int(found[1]), int(found[2])) if found else None


def pool_of(difficulty: str) -> list[Quest]:
    return sorted((q for q in QUESTS.values() if q.difficulty == difficulty), key=lambda q: q.id)
