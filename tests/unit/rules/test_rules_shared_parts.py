"""The parts the engine and the data loading share since they were folded: the Ward-or-damage strike
(attacks, counter-attacks and spells use the one `effects.strike`) and the JSON load-and-validate of the
card and arcana files (`datafile.load_table`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from libs.games.arcana import ARCANA, CATALOG
from libs.games.arcana.arcana import ARCANA_FILE, load_arcana, validate_arcana
from libs.games.arcana.cards import CARDS_FILE, load_catalog, validate_catalog
from libs.games.arcana.effects import damage_units, died_of, strike
from libs.games.arcana.state import Unit
from libs.games.sdk.datafile import load_table

CARD = CATALOG["hedge_knight"]


def _unit(iid: str, health: int, ward: bool) -> Unit:
    return Unit(iid, CARD, 2, health, health, ward, 1)


def test_a_ward_absorbs_one_strike_and_nothing_is_dealt() -> None:
    assert strike("p2", _unit("c1", 3, ward=True), 5, "c9") == (
        {"type": "WardBroken", "player_id": "p2", "unit": "c1"},
        0,
    )


def test_a_strike_without_ward_deals_its_amount() -> None:
    assert strike("p2", _unit("c1", 3, ward=False), 2, "c9") == (
        {"type": "DamageDealt", "player_id": "p2", "target": "c1", "amount": 2, "source": "c9"},
        2,
    )


def test_a_unit_dies_only_of_damage_dealt_that_reaches_its_health() -> None:
    unit = _unit("c1", 3, ward=False)
    assert died_of("p2", unit, 0) == [] and died_of("p2", unit, 2) == []
    assert died_of("p2", unit, 3) == [{"type": "UnitDied", "player_id": "p2", "unit": "c1"}]


def test_damage_to_several_units_lists_the_hits_then_the_deaths() -> None:
    warded, weak, sturdy = _unit("c1", 1, True), _unit("c2", 1, False), _unit("c3", 5, False)
    events = damage_units([("p2", warded, 2), ("p2", weak, 2), ("p1", sturdy, 2)], "c9")
    assert [e["type"] for e in events] == ["WardBroken", "DamageDealt", "DamageDealt", "UnitDied"]
    assert events[-1]["unit"] == "c2"


@dataclass(frozen=True)
class _Row:
    id: str
    size: int


def _write(tmp_path: Path, content: Any) -> Path:
    path = tmp_path / "rows.json"
    path.write_text(json.dumps(content), encoding="utf-8")
    return path


def test_load_table_builds_each_row_keyed_by_id(tmp_path: Path) -> None:
    path = _write(tmp_path, [{"id": "a", "size": 1}, {"id": "b", "size": 2}])
    assert load_table(path, "rows", lambda rows: [], _Row) == {"a": _Row("a", 1), "b": _Row("b", 2)}


def test_load_table_names_the_file_and_every_problem(tmp_path: Path) -> None:
    path = _write(tmp_path, [{"id": "a"}])
    with pytest.raises(ValueError) as caught:
        load_table(path, "rows file", lambda rows: ["one", "two"], _Row)
    assert str(caught.value) == f"invalid rows file {path}: one; two"


def test_a_file_that_is_not_json_is_a_value_error(tmp_path: Path) -> None:
    path = tmp_path / "rows.json"
    path.write_text("[{", encoding="utf-8")
    with pytest.raises(ValueError):
        load_table(path, "rows", lambda rows: [], _Row)


def test_the_shipped_files_load_through_it() -> None:
    assert load_catalog(CARDS_FILE) == CATALOG and load_arcana(ARCANA_FILE) == ARCANA


@pytest.mark.parametrize(
    ("load", "validate", "what"),
    [(load_catalog, validate_catalog, "catalog"), (load_arcana, validate_arcana, "arcana file")],
)
def test_cards_and_arcana_refuse_an_invalid_file_with_its_problems(
    tmp_path: Path, load: Any, validate: Any, what: str
) -> None:
    path = _write(tmp_path, [{"id": "x"}])
    with pytest.raises(ValueError) as caught:
        load(path)
    assert str(caught.value) == f"invalid {what} {path}: " + "; ".join(validate([{"id": "x"}]))
