"""``verdicts_of`` reads the new games' ends, judged as each game's offer says (``FairPlay``): an arena
match of 2-4 distinct players (before: read as malformed, so nobody was paid), a line fight however few
its rounds (it has no turns)."""

from __future__ import annotations

from typing import Any

from libs.fairplay import Verdict, verdicts_of
from libs.games import registry

PAYS = {"coins": True, "xp": True, "rating": False, "reasons": {}}


def _end(game: str, players: list[str], turns: int, **over: Any) -> dict[str, Any]:
    return {
        "game": game, "mode": "casual", "players": players, "winner": players[0], "draw": False,
        "turns": turns, "reason": "x", "bot": None, "verdict": {p: PAYS for p in players}, **over,
    }  # fmt: skip


def judged(game: str, players: list[str], turns: int) -> dict[str, Verdict]:
    return verdicts_of(_end(game, players, turns), registry.fair_play(game))


def test_an_arena_end_of_two_to_four_players_is_judged() -> None:
    for players in (["a", "b"], ["a", "b", "c"], ["a", "b", "c", "d"]):
        assert {p: v.coins for p, v in judged("arena", players, 9).items()} == dict.fromkeys(players, True)
    assert judged("arena", ["a", "b", "c", "d", "e"], 9) == {}
    assert judged("arena", ["a", "b", "b"], 9) == {}
    assert judged("arcana", ["a", "b", "c"], 9) == {}  # Arcana stays two players


def test_a_line_fight_has_no_turn_minimum_but_an_arcana_match_still_has() -> None:
    line = judged("line", ["a", "b"], 2)  # casual: the winner's shards, however short
    assert line["a"].coins and not line["b"].coins and line["b"].reasons["coins"] == "winner_only"
    short = judged("arcana", ["a", "b"], 2)
    assert not any(v.coins for v in short.values()) and short["a"].reasons["coins"] == "too_short"
