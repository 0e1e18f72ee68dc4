"""Issue 17, finding 10: seasons come from a rule, forever (docs/rules.md, "Seasons"): calendar
quarters named after the Major Arcana in order, cycling, continuing the names the former table
gave (its copy: ``data/seasons_2026_2027.json``), with the same cosmetics (players own those ids)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from services.progression.domain import season_by_id, season_of
from services.progression.domain.catalog import MAJOR_ARCANA, TRACK_LEVELS

FORMER_TABLE = Path(__file__).parent / "data" / "seasons_2026_2027.json"


def test_the_rule_gives_the_former_tables_seasons_exactly() -> None:
    for row in json.loads(FORMER_TABLE.read_text()):
        season = season_by_id(row["id"])
        assert season is not None
        assert (season.name, season.start.isoformat(), season.end.isoformat()) == (
            row["name"],
            row["start"],
            row["end"],
        )
        assert [(t.level, t.kind, t.id, t.name) for t in season.track] == [
            (t["level"], t["kind"], t["id"], t["name"]) for t in row["track"]
        ]
    assert season_of(dt.date(2026, 12, 1)).name == "Season of the Empress"  # type: ignore[union-attr]


def test_every_day_from_the_first_season_on_has_exactly_one_quarter() -> None:
    day, end = dt.date(2026, 1, 1), dt.date(2101, 1, 1)
    previous = None
    while day < end:
        season = season_of(day)
        assert season is not None and season.holds(day), day
        assert season.id == f"{day.year}-q{(day.month - 1) // 3 + 1}"
        if previous is not None and previous.id != season.id:
            assert season.start == previous.end + dt.timedelta(days=1)
        previous, day = season, season.end + dt.timedelta(days=1)
    assert season_of(dt.date(2025, 12, 31)) is None  # before the first season


def test_names_cycle_through_the_major_arcana() -> None:
    assert len(MAJOR_ARCANA) == 22
    assert season_by_id("2028-q1").name == "Season of Strength"  # type: ignore[union-attr]
    assert season_by_id("2031-q2").name == "Season of the World"  # type: ignore[union-attr]
    assert season_by_id("2031-q3").name == "Season of the Fool"  # type: ignore[union-attr]  # 22 seasons on
    far = season_by_id("2999-q4")
    assert far is not None and len(far.track) == TRACK_LEVELS and far.track[0].id == "2999q4-card_back-1"


def test_only_quarter_ids_name_seasons() -> None:
    for bad in ("2026-q5", "2026-q0", "2025-q4", "26-q1", "2026-Q1", "2026-q1 ", "x"):
        assert season_by_id(bad) is None, bad
