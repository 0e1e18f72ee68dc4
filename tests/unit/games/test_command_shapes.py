"""A command is checked against the shapes of its own match's game (``libs.games.shapes``): the API's
input schema is the union of every game's, where Arcana's `play` and the arena's differ."""

from __future__ import annotations

import pytest

from libs.games import registry, shapes

ARCANA, ARENA, LINE = (registry.get(n).commands for n in ("arcana", "arena", "line"))
PLAYER = "0b1d2c3e-4f50-4a6b-8c7d-9e0f1a2b3c4d"


def test_each_games_play_fits_its_own_shape_only() -> None:
    assert shapes.problems(ARCANA, {"type": "play", "card": "c17", "position": 2}) == {}
    assert shapes.problems(ARENA, {"type": "play", "card": "fireball-1", "target": PLAYER}) == {}
    assert shapes.problems(ARENA, {"type": "play", "card": "c17", "position": 2}) == {
        "position": ["Unknown field."]
    }
    too_long = shapes.problems(ARCANA, {"type": "play", "card": "c17", "target": PLAYER})
    assert list(too_long) == ["target"]  # an arena target is no Arcana target


def test_types_of_another_game_missing_fields_and_wrong_kinds_are_named_per_field() -> None:
    assert list(shapes.problems(ARCANA, {"type": "react", "card": "shield-1"})) == ["type"]
    assert shapes.problems(ARENA, {"type": "react"}) == {"card": ["Missing data for required field."]}
    assert list(shapes.problems(ARENA, {"type": "end_turn", "discard": "fireball-1"})) == ["discard"]
    assert list(shapes.problems(ARCANA, {"type": "play", "card": "c1", "position": True})) == ["position"]
    assert list(shapes.problems(LINE, {"type": "concede"})) == ["type"]  # the line takes no command
    assert shapes.problems(ARENA, {"type": "pass", "player": PLAYER, "expected_version": 3}) == {}


def test_check_raises_the_refusal_with_its_fields() -> None:
    with pytest.raises(shapes.MalformedCommand) as refused:
        shapes.check(ARENA, {"type": "mulligan", "cards": []})
    assert refused.value.code == "not_this_games_command" and "type" in refused.value.fields
