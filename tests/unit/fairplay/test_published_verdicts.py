"""The verdicts of the games after Arcana (the line, the arena): read as published, for 2 to 4
players, never more than the mode allows; Arcana's reading unchanged."""

from __future__ import annotations

from typing import Any

from libs.fairplay import Verdict, game_of, verdicts_of

ALL = {"coins": True, "xp": True, "rating": True}
NONE = {"coins": False, "xp": False, "rating": False}


def ended(game: str, mode: str, verdict: dict[str, Any], players: list[str] | None = None) -> dict[str, Any]:
    players = players or ["a", "b"]
    return {
        "game": game, "mode": mode, "players": players, "winner": players[0], "loser": None,
        "draw": False, "turns": 0, "round": 1, "reason": "x", "bot": None, "verdict": verdict,
    }  # fmt: skip


def flags(v: Verdict) -> tuple[bool, bool, bool]:
    return v.coins, v.xp, v.rating


def test_an_arena_match_of_three_is_read_as_published() -> None:
    casual = {"coins": True, "xp": True, "rating": False, "reasons": {"rating": "not_ranked"}}
    read = verdicts_of(ended("arena", "casual", dict.fromkeys("abc", casual), ["a", "b", "c"]))
    assert {p: flags(v) for p, v in read.items()} == dict.fromkeys("abc", (True, True, False))


def test_a_line_practice_and_casual_match_count_what_they_publish() -> None:
    winner_xp = {"coins": False, "xp": True, "rating": False}
    practice = verdicts_of(ended("line", "practice", {"a": winner_xp, "b": NONE}))
    assert (flags(practice["a"]), flags(practice["b"])) == ((False, True, False), (False, False, False))
    # a line fight has no turns: nothing "too short" refuses it, as it would an Arcana match
    casual = verdicts_of(ended("line", "casual", {"a": {**winner_xp, "coins": True}, "b": NONE}))
    assert flags(casual["a"]) == (True, True, False)


def test_the_mode_caps_what_a_published_verdict_claims() -> None:
    claims = {"a": ALL, "b": ALL}
    assert {flags(v) for v in verdicts_of(ended("line", "admin", claims)).values()} == {(False,) * 3}
    practice = verdicts_of(ended("line", "practice", claims))["a"]
    assert flags(practice) == (False, True, False) and practice.reasons == {"coins": "mode", "rating": "mode"}
    casual = verdicts_of(ended("arena", "casual", claims))["a"]
    assert flags(casual) == (True, True, False) and casual.reasons == {"rating": "not_ranked"}
    assert flags(verdicts_of(ended("line", "ranked", claims))["b"]) == (True, True, True)


def test_a_player_without_a_verdict_counts_nothing_and_malformed_events_count_for_no_one() -> None:
    assert flags(verdicts_of(ended("line", "casual", {"a": ALL}))["b"]) == (False, False, False)
    assert verdicts_of(ended("arena", "casual", {}, ["a", "a"])) == {}
    assert verdicts_of(ended("arena", "casual", {}, ["a", "b", "c", "d", "e"])) == {}


def test_arcana_is_the_game_when_absent_and_its_reading_is_unchanged() -> None:
    data = ended("arcana", "casual", {"a": ALL, "b": ALL})
    del data["game"]
    assert game_of(data) == "arcana"
    assert {flags(v) for v in verdicts_of(data).values()} == {(False, False, False)}  # turn 0: too short
