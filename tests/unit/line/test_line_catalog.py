"""The line's catalog (validated on load), the stat budget, line legality and the welcome set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from libs.games.line import (
    CATALOG,
    WELCOME_LINE,
    WELCOME_SET,
    InvalidLine,
    line_problems,
    stat_value,
    validate_line,
)
from libs.games.line.catalog import BUDGET, BUDGET_SLACK, CARDS_FILE, load_catalog, validate_catalog


def rows() -> list[dict]:
    return json.loads(CARDS_FILE.read_text())


def test_the_catalog_is_about_forty_cards_each_within_its_rarity_budget() -> None:
    assert len(CATALOG) == 40
    assert validate_catalog(rows()) == []
    for card in CATALOG.values():
        budget = BUDGET[card.rarity]
        assert budget - BUDGET_SLACK <= 3 * card.atk + 2 * card.arm + card.hp <= budget, card.id
    assert stat_value(6, 5, 12) == 40


def test_creeps_are_tanks_or_carries_and_support_exists_only_on_heroes() -> None:
    creeps = [c for c in CATALOG.values() if c.kind == "creep"]
    assert creeps and all(set(c.roles) <= {"tank", "carry"} for c in creeps)
    assert any("support" in c.roles for c in CATALOG.values())


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"kind": "creep", "roles": ["support"], "rarity": "common"}, "a creep is a tank or a carry only"),
        ({"atk": 20}, "outside"),
        ({"roles": ["mage"]}, "roles are one or more of"),
        ({"roles": []}, "roles are one or more of"),
        ({"tags": ["healer", "healer"]}, "tags are some of"),
        ({"rarity": "mythic"}, "rarity"),
        ({"hp": 0}, "HP >= 1"),
        ({"kind": "creep"}, "creeps are common"),
    ],
)
def test_the_validator_names_each_problem(change: dict, problem: str) -> None:
    bad = rows()
    hero = next(i for i, r in enumerate(bad) if r["kind"] == "hero" and r["roles"] == ["support"])
    bad[hero] = {**bad[hero], **change}
    assert any(problem in p for p in validate_catalog(bad)), validate_catalog(bad)


def test_a_bad_catalog_file_is_refused_on_load(tmp_path: Path) -> None:
    bad = rows()
    bad.append(dict(bad[0]))
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(ValueError, match="duplicate id"):
        load_catalog(path)


def test_a_line_is_five_different_catalog_cards_owned_when_a_collection_is_given() -> None:
    assert validate_line(list(WELCOME_LINE)) == WELCOME_LINE
    assert line_problems(WELCOME_LINE[:4]) == ["a line has exactly 5 cards, not 4"]
    twice = [*WELCOME_LINE[:4], WELCOME_LINE[0]]
    assert line_problems(twice) == [f"{WELCOME_LINE[0]} twice: the five are different cards"]
    assert line_problems([*WELCOME_LINE[:4], "nope"]) == ["unknown card 'nope'"]
    assert line_problems(WELCOME_LINE, {c: 1 for c in WELCOME_LINE[:4]}) == [
        f"{WELCOME_LINE[4]} is not owned"
    ]
    with pytest.raises(InvalidLine):
        validate_line(twice)
    with pytest.raises(InvalidLine):
        validate_line("iron_warden")


def test_the_welcome_set_is_3_creeps_7_uncommon_heroes_and_a_support_hero_enough_for_a_five() -> None:
    cards = [CATALOG[c] for c in WELCOME_SET]
    assert len(set(WELCOME_SET)) == len(WELCOME_SET) == 11
    assert sum(c.kind == "creep" for c in cards) == 3
    heroes = [c for c in cards if c.kind == "hero"]
    assert len(heroes) == 8 and all(c.rarity == "uncommon" for c in heroes)
    assert any("support" in c.roles for c in heroes)
    assert set(WELCOME_LINE) <= set(WELCOME_SET)
    assert line_problems(WELCOME_LINE, dict.fromkeys(WELCOME_SET, 1)) == []
