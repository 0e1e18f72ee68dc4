"""The line's MMR ladder (seed 001), pure: start 1,000, a ranked win +2, a loss -1, never below 0, no
tiers; moved only by the verdict's ``rating`` flag; its own streams, apart from Arcana's rating."""

from __future__ import annotations

from typing import Any

import pytest

from libs.contracts import MatchEnded
from services.ratings import domain as d

RATED = {"coins": True, "xp": False, "rating": True, "reasons": {"xp": "mode"}}


def line_ended(verdict: dict[str, Any] | None = None, **over: Any) -> MatchEnded:
    """A line MatchEnded as the match service publishes it (a ranked fight: both rated)."""
    data = {
        "match_id": "m1", "mode": "ranked", "players": ["a", "b"], "winner": "a", "loser": "b",
        "draw": False, "turns": 0, "round": 7, "bot": None, "reason": "line_fallen", "game": "line",
        "placements": [["a"], ["b"]], "verdict": verdict or {"a": RATED, "b": RATED}, **over,
    }  # fmt: skip
    return MatchEnded.decode_data(data)


def test_a_new_line_player_starts_at_1000_without_tiers_on_a_stream_of_its_own() -> None:
    p = d.start("a", "line")
    assert (p.rating, p.tier, p.highest_tier, p.games) == (1000, "none", "none", 0)
    assert d.rating_stream("a", "line") == "line-rating-a" != d.rating_stream("a")


def test_a_ranked_line_win_is_plus_2_and_a_loss_minus_1_whatever_the_gap() -> None:
    result = d.ranked_result(line_ended())
    assert result == d.RankedResult("m1", "a", "b", frozenset(), "line")
    winner = d.start("a", "line")
    loser = d.PlayerRating("b", 1400, "none", game="line")  # far above: Elo would give it more
    win, loss = d.rate(result, winner, loser)
    assert (win.before, win.after, win.delta, win.result, win.game) == (1000, 1002, 2, "win", "line")
    assert (loss.before, loss.after, loss.delta, loss.result, loss.game) == (1400, 1399, -1, "loss", "line")
    assert win.tier == win.highest_tier == loss.tier == "none"


def test_mmr_never_goes_below_zero_and_has_no_floor_above_it() -> None:
    assert d.new_mmr(0, won=False) == 0
    assert d.new_mmr(1, won=False) == 0
    assert d.new_mmr(1500, won=False) == 1499  # no tier floor holds it
    loser = d.PlayerRating("b", 0, "none", game="line")
    _, loss = d.rate(d.RankedResult("m1", "a", "b", game="line"), d.start("a", "line"), loser)
    assert (loss.after, loss.delta) == (0, 0)


def test_the_fold_of_a_line_stream_counts_games_and_keeps_no_tier() -> None:
    a, wins = d.start("a", "line"), []
    for i in range(3):
        (win,) = d.rate(d.RankedResult(f"m{i}", "a", "b", frozenset({"b"}), "line"), a, d.start("b", "line"))
        a, wins = d.evolve(a, win), [*wins, win]
    assert (a.rating, a.wins, a.games, a.highest_tier, a.version) == (1006, 3, 3, "none", 3)
    assert d.fold("a", wins, "line") == a
    with pytest.raises(d.AlreadyRated):
        d.rate(d.RankedResult("m2", "a", "b", game="line"), a, d.start("b", "line"))


def test_only_the_verdicts_rating_flag_moves_the_line_ladder() -> None:
    unrated = {"coins": True, "xp": False, "rating": False, "reasons": {"rating": "repeat_opponent"}}
    repeat = line_ended({"a": unrated, "b": unrated})
    assert d.ranked_result(repeat) is None
    kept = d.unmoved(repeat)
    assert [(u.player_id, u.result, u.reason, u.game) for u in kept] == [
        ("a", "win", "repeat_opponent", "line"),
        ("b", "loss", "repeat_opponent", "line"),
    ]
    unchanged = d.keep(d.start("a", "line"), kept[0])
    assert (unchanged.rating, unchanged.tier, unchanged.game) == (1000, "none", "line")


@pytest.mark.parametrize("mode", ["casual", "practice", "admin"])
def test_unranked_line_matches_move_nothing_even_if_a_verdict_claims_it(mode: str) -> None:
    claimed = line_ended(mode=mode)  # a verdict can only take away what its mode allows
    assert d.ranked_result(claimed) is None and d.unmoved(claimed) == []


def test_a_line_match_is_no_arcana_match_and_the_arena_has_no_ladder() -> None:
    assert d.ranked_result(line_ended()).game == "line"  # type: ignore[union-attr]
    arena = line_ended(game="arena", players=["a", "b", "c"], placements=[["a"], ["b"], ["c"]])
    assert d.ranked_result(arena) is None and d.unmoved(arena) == []
    arcana = MatchEnded.decode_data({**line_ended().data(), "game": "arcana", "turns": 6, "verdict": {}})
    assert d.ranked_result(arcana).game == "arcana"  # type: ignore[union-attr]
