"""The card catalog (data/cards.json), its validator, deck legality and the starter deck and collection."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

from libs.games.sdk.constants import Rarity
from libs.games.sdk.datafile import load_table, rows_problems

from .constants import (
    DECK_SIZE,
    MAX_COPIES,
    MAX_LEGENDARY_COPIES,
    Ability,
    CardType,
    Effect,
    Keyword,
    Summon,
    Tribe,
)
from .errors import InvalidDeck

CARDS_FILE: Final = Path(__file__).with_name("data") / "cards.json"
CATALOG_SIZE: Final = 105
MAX_COST: Final = 10
RARITY_BONUS: Final = {"common": 0, "uncommon": 1, "rare": 1, "epic": 2, "legendary": 3}
BUDGET_SLACK: Final = 2
SPELL_MIN_COST: Final = {
    "damage_unit_2": 1,
    "heal_hero_4": 1,
    "draw_1": 1,
    "buff_unit_2_1": 1,
    "damage_enemy_hero_3": 2,
    "damage_enemy_units_2": 3,
    "buff_order_1_1": 1,
    "damage_all_units_1": 1,
}
FIELDS: Final = (
    "id",
    "name",
    "rarity",
    "type",
    "cost",
    "attack",
    "health",
    "tribe",
    "keyword",
    "ability",
    "summon",
    "effect",
)


@dataclass(frozen=True, slots=True)
class Card:
    """One catalog card. Absent parts are None; units have attack/health, spells an effect."""

    id: str
    name: str
    rarity: str
    type: str
    cost: int
    attack: int | None
    health: int | None
    tribe: str | None
    keyword: str | None
    ability: str | None
    summon: str | None
    effect: str | None

    @property
    def is_unit(self) -> bool:
        return self.type == "unit"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def stat_budget(cost: int, rarity: str, special: bool) -> int:
    """Attack + health a unit may have: 2 per mana + 2, plus a rarity bonus, 1 less with a keyword,
    ability or Summon effect. A unit is within budget when its total is at most this and at least
    `BUDGET_SLACK` below."""
    return 2 * cost + 2 + RARITY_BONUS[rarity] - (1 if special else 0)


def validate_catalog(rows: Any) -> list[str]:
    """Every problem with a catalog file's content (a list of card objects); empty when it is valid."""
    problems = rows_problems(rows, CATALOG_SIZE, FIELDS, _card_problems)
    if problems:
        return problems
    present = {
        v
        for row in rows
        for k in ("rarity", "keyword", "ability", "summon", "effect", "tribe")
        if (v := row[k])
    }
    for enum in (Rarity, Keyword, Ability, Summon, Effect, Tribe):
        problems += [f"no card has {m.value!r}" for m in enum if m.value not in present]
    costs = {row["cost"] for row in rows}
    if 0 not in costs or MAX_COST not in costs:
        problems.append(f"costs must span 0..{MAX_COST}")
    return problems


def _card_problems(row: dict[str, Any]) -> list[str]:
    p: list[str] = []
    if not isinstance(row["id"], str) or not row["id"] or not isinstance(row["name"], str) or not row["name"]:
        p.append("id and name must be non-empty strings")
    if row["rarity"] not in set(Rarity):
        p.append(f"unknown rarity {row['rarity']!r}")
    cost = row["cost"]
    if type(cost) is not int or not 0 <= cost <= MAX_COST:
        return [*p, f"cost must be an int in 0..{MAX_COST}"]
    if row["type"] == CardType.UNIT:
        atk, hp = row["attack"], row["health"]
        if type(atk) is not int or type(hp) is not int or atk < 0 or hp < 1:
            return [*p, "a unit needs int attack >= 0 and health >= 1"]
        if row["effect"] is not None:
            p.append("a unit has no spell effect")
        if row["tribe"] is not None and row["tribe"] not in set(Tribe):
            p.append(f"unknown tribe {row['tribe']!r}")
        specials = [row[k] for k in ("keyword", "ability", "summon") if row[k] is not None]
        if len(specials) > 1:
            p.append("a keyword, an ability or a Summon effect: never two")
        for key, enum in (("keyword", Keyword), ("ability", Ability), ("summon", Summon)):
            if row[key] is not None and row[key] not in set(enum):
                p.append(f"unknown {key} {row[key]!r}")
        if row["ability"] == Ability.RALLY and row["tribe"] is None:
            p.append("a rally unit needs a tribe")
        if row["rarity"] in RARITY_BONUS:
            budget = stat_budget(cost, row["rarity"], bool(specials))
            if not budget - BUDGET_SLACK <= atk + hp <= budget:
                p.append(f"stats {atk}/{hp} outside the budget {budget - BUDGET_SLACK}..{budget}")
    elif row["type"] == CardType.SPELL:
        if any(row[k] is not None for k in ("attack", "health", "tribe", "keyword", "ability", "summon")):
            p.append("a spell has only an effect")
        if row["effect"] not in SPELL_MIN_COST:
            p.append(f"unknown effect {row['effect']!r}")
        elif cost < SPELL_MIN_COST[row["effect"]]:
            p.append(f"{row['effect']} costs at least {SPELL_MIN_COST[row['effect']]}")
    else:
        p.append(f"unknown type {row['type']!r}")
    return p


def load_catalog(path: Path = CARDS_FILE) -> dict[str, Card]:
    """Read and validate a catalog file; raises ValueError listing every problem."""
    return load_table(path, "catalog", validate_catalog, Card)


CATALOG: Final[Mapping[str, Card]] = load_catalog()


def deck_problems(
    deck: Iterable[Any], collection: Mapping[str, int] | None = None, catalog: Mapping[str, Card] = CATALOG
) -> list[str]:
    """Why a deck is illegal: not exactly 20 cards, unknown ids, over 2 copies (1 of a legendary), and, when
    a `collection` (card id -> copies owned) is given, more copies than the player owns."""
    cards = list(deck)
    problems = [] if len(cards) == DECK_SIZE else [f"a deck has exactly {DECK_SIZE} cards, not {len(cards)}"]
    for card_id, n in Counter(c if isinstance(c, str) else repr(c) for c in cards).items():
        card = catalog.get(card_id)
        if card is None:
            problems.append(f"unknown card {card_id!r}")
        elif n > (MAX_LEGENDARY_COPIES if card.rarity == Rarity.LEGENDARY else MAX_COPIES):
            problems.append(f"{n} copies of {card_id}")
        elif collection is not None and n > collection.get(card_id, 0):
            problems.append(f"{n} copies of {card_id}, {collection.get(card_id, 0)} owned")
    return problems


def validate_deck(deck: Any) -> None:
    """Raise `RuleViolation(invalid_deck)` unless `deck` is a legal list of 20 card ids."""
    if not isinstance(deck, list | tuple):
        raise InvalidDeck("a deck is a list of card ids")
    problems = deck_problems(deck)
    if problems:
        raise InvalidDeck("; ".join(problems))


STARTER_DECK: Final[tuple[str, ...]] = (
    "wolf_pup",
    "wolf_pup",
    "squire",
    "shield_bearer",
    "ember_dart",
    "ember_dart",
    "den_mother",
    "thornback_boar",
    "hedge_knight",
    "temple_acolyte",
    "pack_howler",
    "banner_knight",
    "mercenary",
    "sabre_cat",
    "ridge_bear",
    "frost_ogre",
    "mending_light",
    "tusked_charger",
    "dune_nomad",
    "iron_juggernaut",
)
"""A first deck: 20 commons, a curve from 1 to 6 mana, Beast and Order units, removal and a heal."""

STARTER_COLLECTION: Final[Mapping[str, int]] = {
    **{card_id: n for card_id, n in Counter(STARTER_DECK).items()},
    "squire": 2,
    "shield_bearer": 2,
    "hedge_knight": 2,
    "quick_study": 2,
    "battle_blessing": 2,
    "stone_guard": 2,
    "hill_brute": 2,
    "vine_lasher": 2,
    "thicket_druid": 2,
}
"""What a new account owns: the starter deck and a few spare commons (card id -> copies)."""
