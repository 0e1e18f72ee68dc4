"""``verdicts_of`` reads the new games' ends: an arena match of 2-4 distinct players (before: read as
malformed, so nobody was paid), a line fight however few its rounds (it has no turns)."""

from __future__ import annotations

from typing import Any

from libs.fairplay import verdicts_of

PAYS = {"coins": True, "xp": True, "rating": False, "reasons": {}}


def _end(game: str, players: list[str], turns: int, **over: Any) -> dict[str, Any]:
    return {
        "game": game, "mode": "casual", "players": players, "winner": players[0], "draw": False,
        "turns": turns, "reason": "x", "bot": None, "verdict": {p: PAYS for p in players}, **over,
    }  # fmt: skip


def test_an_arena_end_of_two_to_four_players_is_judged() -> None:
    for players in (["a", "b"], ["a", "b", "c"], ["a", "b", "c", "d"]):
        assert {p: v.coins for p, v in verdicts_of(_end("arena", players, 9)).items()} == dict.fromkeys(
            players, True
        )
    assert verdicts_of(_end("arena", ["a", "b", "c", "d", "e"], 9)) == {}
    assert verdicts_of(_end("arena", ["a", "b", "b"], 9)) == {}
    assert verdicts_of(_end("arcana", ["a", "b", "c"], 9)) == {}  # Arcana stays two players


def test_a_line_fight_has_no_turn_minimum_but_an_arcana_match_still_has() -> None:
    line = verdicts_of(_end("line", ["a", "b"], 2))  # casual: the winner's shards, however short
    assert line["a"].coins and not line["b"].coins and line["b"].reasons["coins"] == "winner_only"
    short = verdicts_of(_end("arcana", ["a", "b"], 2))
    assert not any(v.coins for v in short.values()) and short["a"].reasons["coins"] == "too_short"
