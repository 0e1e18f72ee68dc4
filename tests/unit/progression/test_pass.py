"""Season pass arithmetic: 600 XP per level, 30 levels, XP past 30 kept, each source once."""

from __future__ import annotations

import datetime as dt

from services.progression.domain import season_of, season_pass
from services.progression.domain.facts import MatchResult
from services.progression.events import Event, PassLevelReached, PassXpEarned

SEASON = season_of(dt.date(2026, 11, 30))


def _earn_all(state: season_pass.SeasonPass, grants: list[tuple[int, dict[str, str]]]) -> list[Event]:
    assert SEASON is not None
    out: list[Event] = []
    for xp, source in grants:
        new = season_pass.earn(state, SEASON, xp, source)
        for e in new:
            season_pass.evolve(state, e)
        out += new
    return out


def _match(i: int, outcome: str) -> MatchResult:
    winner = None if outcome == "draw" else ("me" if outcome == "win" else "foe")
    return MatchResult(
        f"m{i}", "ranked", dt.date(2026, 11, 30), ("me", "foe"), winner, outcome == "draw", 8, None
    )


def test_wins_losses_draws_and_quests_add_up_to_levels() -> None:
    assert SEASON is not None and SEASON.id == "2026-q4"
    state = season_pass.SeasonPass("me", SEASON.id)
    outcomes = ["win"] * 50 + ["loss"] * 30 + ["draw"] * 10
    grants = [(_match(i, o).xp_for("me"), {"match_id": f"m{i}"}) for i, o in enumerate(outcomes)]
    grants += [(180, {"quest_id": "hard-wins", "day": "2026-11-30"})]
    events = _earn_all(state, grants)
    expected = 50 * 60 + 30 * 25 + 10 * 25 + 180  # 4180
    assert state.xp == expected
    assert state.level == expected // 600 == 6
    assert season_pass.xp_into_level(state.xp) == expected - 6 * 600
    reached = [e.level for e in events if isinstance(e, PassLevelReached)]
    assert reached == [1, 2, 3, 4, 5, 6]


def test_nothing_past_level_30_but_the_xp_is_kept() -> None:
    assert SEASON is not None
    state = season_pass.SeasonPass("me", SEASON.id)
    events = _earn_all(state, [(60, {"match_id": f"m{i}"}) for i in range(320)])  # 19200 XP
    assert state.xp == 19200
    assert state.level == 30
    assert season_pass.xp_into_level(state.xp) == 19200 - 30 * 600
    levels = [e for e in events if isinstance(e, PassLevelReached)]
    assert [e.level for e in levels] == list(range(1, 31))
    assert all(len(e.rewards) == 1 for e in levels)


def test_a_source_counts_once() -> None:
    assert SEASON is not None
    state = season_pass.SeasonPass("me", SEASON.id)
    _earn_all(state, [(60, {"match_id": "m1"})])
    assert season_pass.earn(state, SEASON, 60, {"match_id": "m1"}) == []
    replayed = season_pass.fold(
        "me", SEASON.id, [PassXpEarned("me", SEASON.id, 60, {"match_id": "m1"}, 60, 0)]
    )
    assert replayed.sources == state.sources and replayed.xp == 60


def test_the_season_of_a_day() -> None:
    assert season_of(dt.date(2026, 12, 31)).id == "2026-q4"  # type: ignore[union-attr]
    assert season_of(dt.date(2027, 1, 1)).id == "2027-q1"  # type: ignore[union-attr]
    assert season_of(dt.date(2025, 12, 31)) is None
