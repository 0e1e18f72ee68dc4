"""The line's card catalog (data/cards.json) validated on load, the stat budget, lines and the welcome set."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from libs.games.sdk.constants import Rarity  # the same five rarities as Arcana's cards
from libs.games.sdk.datafile import load_table, rows_problems

from .constants import CREEP_ROLES, LINE_SIZE, Kind, Role, Tag
from .errors import InvalidLine

CARDS_FILE: Final = Path(__file__).with_name("data") / "cards.json"
CATALOG_SIZE: Final = 40
FIELDS: Final = ("id", "name", "kind", "rarity", "roles", "tags", "atk", "arm", "hp")
BUDGET: Final = {"common": 40, "uncommon": 42, "rare": 44, "epic": 46, "legendary": 48}
BUDGET_SLACK: Final = 2
HERO_RARITIES: Final = frozenset(r.value for r in Rarity if r is not Rarity.COMMON)


def stat_value(atk: int, arm: int, hp: int) -> int:
    """What a card's stats cost: 3 per ATK, 2 per ARM, 1 per HP."""
    return 3 * atk + 2 * arm + hp


@dataclass(frozen=True, slots=True)
class Card:
    """One line card as printed: roles drive combat (tank, carry, nuker, support), tags only links."""

    id: str
    name: str
    kind: str
    rarity: str
    roles: tuple[str, ...]
    tags: tuple[str, ...]
    atk: int
    arm: int
    hp: int
    words: frozenset[str] = field(init=False, compare=False, repr=False)
    """Every name the card carries, as a role or a tag (what links match)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "words", frozenset(self.roles) | frozenset(self.tags))

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "kind": self.kind,
            "rarity": self.rarity,
            "roles": list(self.roles),
            "tags": list(self.tags),
            "atk": self.atk,
            "arm": self.arm,
            "hp": self.hp,
        }


def _card(**row: Any) -> Card:
    return Card(**{**row, "roles": tuple(row["roles"]), "tags": tuple(row["tags"])})


def validate_catalog(rows: Any) -> list[str]:
    """Every problem with a catalog file's content (a list of card objects); empty when it is valid."""
    problems = rows_problems(rows, CATALOG_SIZE, FIELDS, card_problems)
    if not problems:
        words = {w for row in rows for w in (*row["roles"], *row["tags"])}
        problems += [f"no card is {w.value!r}" for w in (*Role, *Tag) if w.value not in words]
    return problems


def card_problems(row: Mapping[str, Any]) -> list[str]:
    """What is wrong with one catalog row (its fields present)."""
    p: list[str] = []
    if not all(isinstance(row[k], str) and row[k] for k in ("id", "name")):
        p.append("id and name are non-empty strings")
    if row["kind"] not in set(Kind):
        p.append(f"unknown kind {row['kind']!r}")
    roles, tags = row["roles"], row["tags"]
    if not _names(roles, Role) or not roles:
        return [*p, f"roles are one or more of {', '.join(Role)}, each once"]
    if not _names(tags, Tag):
        return [*p, f"tags are some of {', '.join(Tag)}, each once"]
    if row["kind"] == Kind.CREEP and not set(roles) <= CREEP_ROLES:
        p.append("a creep is a tank or a carry only")
    if row["kind"] == Kind.CREEP and row["rarity"] != Rarity.COMMON:
        p.append("creeps are common")
    if row["kind"] == Kind.HERO and row["rarity"] not in HERO_RARITIES:
        p.append(f"a hero is one of {', '.join(sorted(HERO_RARITIES))}")
    atk, arm, hp = row["atk"], row["arm"], row["hp"]
    if not all(type(v) is int for v in (atk, arm, hp)) or atk < 1 or arm < 0 or hp < 1:
        return [*p, "ATK >= 1, ARM >= 0 and HP >= 1 are ints"]
    budget = BUDGET.get(row["rarity"])
    if budget is None:
        p.append(f"unknown rarity {row['rarity']!r}")
    elif not budget - BUDGET_SLACK <= stat_value(atk, arm, hp) <= budget:
        p.append(
            f"3*ATK + 2*ARM + HP = {stat_value(atk, arm, hp)}, outside {budget - BUDGET_SLACK}..{budget}"
        )
    return p


def _names(values: Any, enum: type[Role] | type[Tag]) -> bool:
    return (
        isinstance(values, list) and all(v in set(enum) for v in values) and len(set(values)) == len(values)
    )


def load_catalog(path: Path = CARDS_FILE) -> dict[str, Card]:
    """Read and validate a catalog file; raises ValueError listing every problem."""
    return load_table(path, "line catalog", validate_catalog, _card)


CATALOG: Final[Mapping[str, Card]] = load_catalog()


def line_problems(
    line: Iterable[Any], collection: Mapping[str, int] | None = None, catalog: Mapping[str, Card] = CATALOG
) -> list[str]:
    """Why a line is illegal: not five cards, unknown ids, a card twice, and, when a `collection`
    (card id -> copies owned) is given, a card the player does not own."""
    cards = list(line)
    problems = [] if len(cards) == LINE_SIZE else [f"a line has exactly {LINE_SIZE} cards, not {len(cards)}"]
    seen: set[str] = set()
    for card_id in cards:
        if not isinstance(card_id, str) or card_id not in catalog:
            problems.append(f"unknown card {card_id!r}")
        elif card_id in seen:
            problems.append(f"{card_id} twice: the five are different cards")
        elif collection is not None and collection.get(card_id, 0) < 1:
            problems.append(f"{card_id} is not owned")
        if isinstance(card_id, str):
            seen.add(card_id)
    return problems


def validate_line(line: Any) -> tuple[str, ...]:
    """`line` as a tuple of five card ids; raises `InvalidLine` unless it is five different catalog cards."""
    if not isinstance(line, list | tuple):
        raise InvalidLine("a line is a list of five card ids")
    problems = line_problems(line)
    if problems:
        raise InvalidLine("; ".join(problems))
    return tuple(line)


WELCOME_CREEPS: Final = ("mud_brute", "spear_runner", "ash_hound")
WELCOME_HEROES: Final = (
    "iron_warden",
    "dune_sentinel",
    "ember_adept",
    "blade_dancer",
    "frost_caller",
    "shadow_stalker",
    "thorn_guard",
)
WELCOME_SUPPORT: Final = "moss_shaman"
WELCOME_SET: Final[tuple[str, ...]] = (*WELCOME_CREEPS, *WELCOME_HEROES, WELCOME_SUPPORT)
"""What a new player claims: 3 creeps, 7 uncommon heroes and one support hero (one copy each)."""

WELCOME_LINE: Final[tuple[str, ...]] = (
    "iron_warden",
    "blade_dancer",
    "ember_adept",
    "moss_shaman",
    "mud_brute",
)
"""A first five from the welcome set (tank in front, carry behind it, a nuker, the support)."""
