"""Versions of the line's rules: a fight records the version it is played under (FightStarted's `rules`,
absent for version 1, every fight recorded before versions), replays under it, and new fights use the
current one (version 2: one card may meet several of the classic link's requirements)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from libs import games
from libs.games.line import InvalidSetup, fold, start, state_hash
from libs.games.line.constants import RULES_VERSION
from libs.games.line.game import GAME

CLASSIC_CASE = ["sun_herald", "reed_archer", "ash_hound", "blade_dancer", "gale_duelist"]
OTHER = ["iron_warden", "blade_dancer", "ember_adept", "moss_shaman", "mud_brute"]
RECORDED = Path(__file__).parents[1] / "match" / "data" / "line.v1.jsonl"


def setup(**extra: Any) -> dict[str, Any]:
    players = [{"id": "a", "deck": CLASSIC_CASE}, {"id": "b", "deck": OTHER}]
    return {"match_id": "m", "seed": 7, "players": players, **extra}


def links_of(event: dict[str, Any], side: int = 0) -> list[str]:
    return [x["id"] for x in event["players"][side]["links"]]


def test_a_new_fight_is_played_under_the_current_rules_and_lights_the_classic_case() -> None:
    assert RULES_VERSION == 2
    events = start(setup())
    assert events[0]["rules"] == 2 and "classic" in links_of(events[0])
    assert fold(events).rules == 2
    through_the_game = GAME.setup(
        games.Setup(
            "m", 7, (games.Seat("a", tuple(CLASSIC_CASE)), games.Seat("b", tuple(OTHER))), "2026-12-03"
        )
    )
    assert through_the_game[0]["rules"] == 2 and "classic" in links_of(through_the_game[0])


def test_a_fight_under_version_1_is_recorded_without_the_field_and_replays_under_version_1() -> None:
    old = start(setup(rules=1))
    assert "rules" not in old[0] and "classic" not in links_of(old[0])
    state = fold(old)
    assert state.rules == 1
    # the old fight's outcome differs from the same fight under the new rules (the reason for a version)
    assert fold(start(setup())).fighters != state.fighters
    # its hash is the one version 1 gave: no version in what is hashed
    assert '"rules"' not in json.dumps(old)
    assert state_hash(state) != state_hash(fold(start(setup())))


def test_the_recorded_match_streams_fight_replays_under_version_1_to_the_same_events() -> None:
    rows = [json.loads(line) for line in RECORDED.read_text().splitlines()]
    # the game's events between the service's MatchCreated and MatchEnded, the player renamed (version 2)
    recorded = [
        {"type": r["type"], **{("player_id" if k == "player" else k): v for k, v in r["data"].items()}}
        for r in rows[1:-1]
    ]
    opening, end = recorded[0], rows[-1]["data"]
    assert opening["type"] == "FightStarted" and "rules" not in opening
    assert fold(recorded).rules == 1
    again = start(
        {
            "match_id": opening["match_id"],
            "seed": opening["seed"],
            "first": opening["first"],
            "players": [{"id": p["id"], "deck": p["line"]} for p in opening["players"]],
            "rules": 1,
        }
    )
    assert again[:-1] == recorded
    assert {k: again[-1][k] for k in ("winner", "reason", "score")} == {
        k: end[k] for k in ("winner", "reason", "score")
    }


@pytest.mark.parametrize("bad", [0, 3, "2", True, 2.0])
def test_an_unknown_rules_version_is_refused(bad: object) -> None:
    with pytest.raises(InvalidSetup):
        start(setup(rules=bad))
