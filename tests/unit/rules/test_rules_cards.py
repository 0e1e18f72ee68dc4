"""docs/rules.md, "Cards and decks": the catalog and its validator, deck legality, the starter deck."""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

from libs.games.arcana import (
    CATALOG,
    STARTER_COLLECTION,
    STARTER_DECK,
    RuleViolation,
    deck_problems,
    start,
    validate_catalog,
)
from libs.games.arcana.cards import CARDS_FILE, FIELDS, stat_budget

from .support import deck, setup

ROWS = json.loads(CARDS_FILE.read_text())


def test_the_catalog_file_is_valid() -> None:
    assert validate_catalog(ROWS) == []
    assert len(CATALOG) == 105
    assert set(CATALOG["wolf_pup"].to_dict()) == set(FIELDS)
    assert {c.rarity for c in CATALOG.values()} == {"common", "uncommon", "rare", "epic", "legendary"}
    assert {c.tribe for c in CATALOG.values()} == {"beast", "wild", "giant", "order", None}
    assert min(c.cost for c in CATALOG.values()) == 0 and max(c.cost for c in CATALOG.values()) == 10


def test_every_keyword_ability_summon_and_spell_effect_is_on_some_card() -> None:
    words = {w for c in CATALOG.values() for w in (c.keyword, c.ability, c.summon, c.effect) if w}
    assert words == {
        "taunt",
        "rush",
        "ward",
        "lifesteal",
        "beast_aura",
        "adjacent_aura",
        "early_arcana",
        "per_beast",
        "rally",
        "per_wild",
        "giant_buff",
        "damage_unit_2",
        "heal_hero_4",
        "draw_1",
        "buff_unit_2_1",
        "damage_enemy_hero_3",
        "damage_enemy_units_2",
        "buff_order_1_1",
        "damage_all_units_1",
    }


def test_units_have_one_special_at_most_and_stats_within_budget() -> None:
    for c in CATALOG.values():
        if c.type == "unit":
            assert c.attack is not None and c.health is not None
            specials = [w for w in (c.keyword, c.ability, c.summon) if w]
            assert len(specials) <= 1
            assert c.attack + c.health <= stat_budget(c.cost, c.rarity, bool(specials))
        else:
            assert c.attack is None and c.health is None and c.effect


def broken(index: int, **changes: object) -> list[dict]:
    rows = copy.deepcopy(ROWS)
    rows[index].update(changes)
    return rows


@pytest.mark.parametrize(
    ("rows", "needle"),
    [
        (ROWS[:-1], "104 cards"),
        (broken(1, id=ROWS[0]["id"]), "duplicate id"),
        (broken(0, attack=40), "outside the budget"),
        (broken(0, keyword="taunt", ability="rally"), "never two"),
        (broken(0, cost=11), "cost must be"),
        (broken(0, rarity="mythic"), "unknown rarity"),
        (broken(0, health=0), "health >= 1"),
        (broken(104, effect="nuke"), "unknown effect"),
        (broken(104, attack=3), "only an effect"),
        (broken(0, type="land"), "unknown type"),
        (broken(0, extra=1), "fields must be"),
        (
            [r | {"effect": "heal_hero_4"} if r["effect"] == "draw_1" else r for r in ROWS],
            "no card has 'draw_1'",
        ),
    ],
)
def test_the_validator_catches_a_faulty_file(rows: list[dict], needle: str) -> None:
    problems = validate_catalog(rows)
    assert any(needle in p for p in problems), problems


@pytest.mark.parametrize(
    ("cards", "needle"),
    [
        (deck()[:19], "exactly 20"),
        ([*deck(), "squire"], "exactly 20"),
        (deck("squire", "squire", "squire"), "3 copies of squire"),
        (deck("ymir_the_first", "ymir_the_first"), "2 copies of ymir_the_first"),
        (deck("no_such_card"), "unknown card"),
    ],
)
def test_illegal_decks_are_refused(cards: list[str], needle: str) -> None:
    assert any(needle in p for p in deck_problems(cards))
    s = setup()
    s["players"][1]["deck"] = cards
    with pytest.raises(RuleViolation) as err:
        start(s)
    assert err.value.code == "invalid_deck"


def test_only_owned_cards_can_be_built_with() -> None:
    assert deck_problems(STARTER_DECK, STARTER_COLLECTION) == []
    owned = dict(STARTER_COLLECTION) | {"wolf_pup": 1}
    assert deck_problems(STARTER_DECK, owned) == ["2 copies of wolf_pup, 1 owned"]


def test_the_starter_deck_is_legal_and_owned() -> None:
    assert deck_problems(STARTER_DECK) == []
    assert all(CATALOG[c].rarity != "legendary" for c in STARTER_DECK)
    assert all(STARTER_COLLECTION.get(c, 0) >= n for c, n in Counter(STARTER_DECK).items())
    curve = Counter(CATALOG[c].cost for c in STARTER_DECK)
    assert sum(n for cost, n in curve.items() if cost <= 3) >= 12 and max(curve) <= 6
    assert all(c in CATALOG for c in STARTER_COLLECTION)
