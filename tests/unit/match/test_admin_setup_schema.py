"""The set-up of an operator's match (``POST /v1/admin/matches``) is built from the hosted games'
declarations (``Game.setup_options``, ``Game.seats``), not from a game named in the service."""

from __future__ import annotations

import marshmallow as ma
import pytest

from libs.games import registry
from services.match import schemas


def test_each_games_options_come_from_its_declaration() -> None:
    arcana = registry.get("arcana")
    setup = schemas.admin_setup(("arcana", "arena", "line"))()
    spread = list(arcana.setup_options["arcana"].choices[:6])
    loaded = setup.load({"players": [{"id": "a", "deck": []}] * 2, "arcana": spread, "shuffle": False})
    assert loaded["arcana"] == spread and loaded["shuffle"] is False
    with pytest.raises(ma.ValidationError) as refused:
        setup.load({"players": [{"id": "a", "deck": []}] * 2, "arcana": ["not_an_arcana", *spread[1:]]})
    assert "arcana" in refused.value.messages
    with pytest.raises(ma.ValidationError, match="distinct"):
        setup.load({"players": [{"id": "a", "deck": []}] * 2, "arcana": [spread[0]] * 6})
    assert "**arcana**" in setup.fields["arcana"].metadata["description"]  # documented per game
    # a table of four: the arena seats four, so the schema lets the game judge the count
    setup.load({"players": [{"id": p, "deck": []} for p in "abcd"]})


def test_games_without_options_add_none_and_seat_their_own_counts() -> None:
    setup = schemas.admin_setup(("line",))()
    assert set(setup.fields) == {"players", "seed", "date"}
    with pytest.raises(ma.ValidationError):
        setup.load({"players": [{"id": p, "deck": []} for p in "abc"]})  # the line seats two
    with pytest.raises(ma.ValidationError):  # strict: another game's option is unknown here
        setup.load({"players": [{"id": "a", "deck": []}] * 2, "first": "a"})
