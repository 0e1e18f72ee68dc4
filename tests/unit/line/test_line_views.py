"""What the line shows: views, public events, the combat log; decide refuses everything; the result."""

from __future__ import annotations

import pytest

from libs.games.line import (
    WELCOME_LINE,
    FightOver,
    InvalidCommand,
    InvalidLine,
    InvalidSetup,
    UnknownPlayer,
    combat_log,
    decide,
    fight,
    legal_commands,
    result,
    start,
    view,
    visible_event,
)

OTHER = ["bog_lurker", "gale_duelist", "comet_sage", "dawn_priestess", "war_drummer"]
SETUP = {
    "match_id": "m",
    "seed": 99,
    "players": [{"id": "a", "deck": list(WELCOME_LINE)}, {"id": "b", "deck": OTHER}],
}


def test_the_seed_never_leaves_the_server_and_everything_else_is_public() -> None:
    events = start(SETUP)
    assert "seed" not in visible_event(events[0], "a") and events[0]["seed"] == 99
    assert all(visible_event(e, "b") == e for e in events[1:])


def test_the_combat_log_replays_round_by_round_to_the_final_hp_for_each_viewer() -> None:
    events, state = fight(SETUP)
    for viewer in ("a", "b"):
        log = combat_log(events, viewer)
        me = state.side(viewer)
        assert log["you"] == viewer and log["opponent"] == state.pids[1 - me]
        assert [r["round"] for r in log["rounds"]] == list(range(1, state.round + 1))
        actions = [a for r in log["rounds"] for a in r["actions"]]
        assert len(actions) == sum(e["type"] in ("CardHit", "CardHealed") for e in events)
        last: dict[tuple[str, int], int] = {}
        for action in actions:
            hit_side = (
                ("opponent" if action["by"] == "you" else "you")
                if action["action"] == "hit"
                else action["by"]
            )
            last[(hit_side, action["target"])] = action["hp"]
        for (side, slot), hp in last.items():
            assert state.hp[me if side == "you" else 1 - me][slot] == hp
        assert log["end"]["winner"] == ("you" if state.winner == viewer else "opponent")
        assert log["end"]["score"] == state.score
    with pytest.raises(ValueError):
        combat_log(events, "c")


def test_view_shows_both_lines_with_current_hp_and_the_result() -> None:
    _, state = fight(SETUP)
    v = view(state, "b")
    assert v["you"]["player"] == "b" and v["opponent"]["player"] == "a"
    assert [c["hp"] for c in v["you"]["cards"]] == list(state.hp[1])
    assert v["result"]["placements"] == [state.winner, state.loser]
    assert "seed" not in str(v)


def test_result_carries_placements_and_per_player_stats() -> None:
    events, state = fight(SETUP)
    r = result(state)
    hits = {
        pid: sum(e["damage"] for e in events if e["type"] == "CardHit" and e["player_id"] == pid)
        for pid in "ab"
    }
    assert {pid: r["players"][pid]["damage"] for pid in "ab"} == hits
    kills = {pid: sum(e["type"] == "CardDied" and e["player_id"] != pid for e in events) for pid in "ab"}
    assert {pid: r["players"][pid]["kills"] for pid in "ab"} == kills
    assert r["players"][state.winner]["score"] == state.score and r["players"][state.loser]["score"] == 0


def test_decide_refuses_every_command_with_a_precise_error() -> None:
    _, state = fight(SETUP)
    with pytest.raises(InvalidCommand):
        decide(state, "concede")
    with pytest.raises(InvalidCommand):
        decide(state, {"type": "concede"})
    with pytest.raises(UnknownPlayer):
        decide(state, {"type": "concede", "player": "c"})
    with pytest.raises(FightOver) as refused:
        decide(state, {"type": "concede", "player": "a"})
    assert refused.value.code == "match_over"
    assert legal_commands(state, "a") == legal_commands(state, "b") == []


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"seed": "1"}, InvalidSetup),
        ({"match_id": ""}, InvalidSetup),
        ({"players": [{"id": "a", "deck": list(WELCOME_LINE)}]}, InvalidSetup),
        ({"players": [{"id": "a", "deck": list(WELCOME_LINE)}, {"id": "a", "deck": OTHER}]}, InvalidSetup),
        ({"first": "c"}, InvalidSetup),
        ({"players": [{"id": "a", "deck": list(WELCOME_LINE)}, {"id": "b", "deck": OTHER[:4]}]}, InvalidLine),
    ],
)
def test_start_refuses_a_bad_setup(change: dict, error: type[Exception]) -> None:
    with pytest.raises(error):
        start({**SETUP, **change})
