"""What each player sees: their own hand only, every count public, the open attack and who is awaited."""

from __future__ import annotations

import json

import pytest

from libs.games.arena import fold, result, start, view, visible_event

from .support import A, B, C, play, position


def test_a_view_shows_only_the_viewers_hand_and_every_count() -> None:
    state = position(
        {A: ["fireball-1", "mirror-1"], B: ["shield-1"], C: []}, players=(A, B, C), discard=["fireball-2"]
    )
    mine = view(state, A)
    assert mine["hand"] == [{"id": "fireball-1", "card": "fireball"}, {"id": "mirror-1", "card": "mirror"}]
    assert [p["hand_count"] for p in mine["seats"]] == [2, 1, 0]
    assert mine["pile_count"] == 16 - 4 and mine["discard"] == [{"id": "fireball-2", "card": "fireball"}]
    assert "shield-1" not in json.dumps(mine) and "fireball-1" not in json.dumps(view(state, B))
    assert mine["waiting"] == [{"player": A, "key": "action:1", "seconds": 60}]
    with pytest.raises(ValueError):
        view(state, "z")


def test_the_view_shows_the_open_attack_and_the_reaction_timer() -> None:
    state, _ = play(
        position({A: ["fireball-1"], B: ["shield-1"]}),
        {"type": "play", "player": A, "card": "fireball-1", "target": B},
    )
    seen = view(state, A)
    assert seen["phase"] == "reaction" and seen["attack"]["target"] == B
    assert seen["waiting"] == [{"player": B, "key": "reaction:1", "seconds": 10}]


def test_events_hide_the_seed_the_pile_order_and_others_draws() -> None:
    events = start({"match_id": "m", "seed": 3, "players": [{"id": A}, {"id": B}]})
    assert "seed" not in visible_event(events[0], A)
    assert visible_event(events[1], None)["pile_count"] == 16 and "pile" not in visible_event(events[1], A)
    draw = next(e for e in events if e["type"] == "CardDrawn" and e["player_id"] == A)
    assert (
        visible_event(draw, A) == draw
        and "card" not in visible_event(draw, B)
        and "card" not in visible_event(draw, None)
    )


def test_the_result_names_placements_and_per_player_stats() -> None:
    state, _ = play(
        position(
            {A: ["fireball-1"]},
            players=(A, B, C),
            life={B: 1},
            wins={A: 2, C: 1},
            in_round=(True, True, False),
        ),
        {"type": "play", "player": A, "card": "fireball-1", "target": B},
        {"type": "pass", "player": B},
    )
    r = result(state)
    assert r is not None and r["winner"] == A and r["placements"] == [[A], [C], [B]]
    assert r["players"][A]["cards_played"] == 1 and r["players"][A]["damage_dealt"] == 1
    assert r["players"][C]["rounds_won"] == 1
    assert result(fold(start({"match_id": "m", "seed": 1, "players": [{"id": A}, {"id": B}]}))) is None
