"""The one codec (``libs.codec``): strict decoding, the JSON form of states and the JSON Schemas read
each type hint the same way, and nothing else in the code walks type hints."""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from libs import codec
from libs.config import PROJECT_ROOT


class Suit(enum.Enum):
    CUPS = "cups"
    SWORDS = "swords"


@dataclass(frozen=True)
class Card:
    suit: Suit
    rank: int


@dataclass(frozen=True)
class Table:
    cards: tuple[Card, ...]
    seen: frozenset[str]
    scores: Mapping[str, float]
    by_turn: dict[int, str]
    pair: tuple[int, str]
    started: datetime
    day: date
    winner: str | None = None
    note: Any = None
    tags: list[str] = field(default_factory=list)


TABLE = Table(
    cards=(Card(Suit.CUPS, 3), Card(Suit.SWORDS, 12)),
    seen=frozenset({"b", "a"}),
    scores={"ann": 1.5, "bob": 2.0},
    by_turn={1: "ann", 10: "bob"},
    pair=(7, "x"),
    started=datetime(2026, 12, 3, 12, 0, tzinfo=UTC),
    day=date(2026, 12, 3),
    note={"kept": ["as", "given"]},
)


def test_a_state_comes_back_equal_from_its_json_form() -> None:
    data = codec.encode(TABLE)
    assert data["cards"] == [{"suit": "cups", "rank": 3}, {"suit": "swords", "rank": 12}]
    assert data["seen"] == ["a", "b"]  # sorted: the same set, the same JSON
    assert data["by_turn"] == {"1": "ann", "10": "bob"}
    assert data["started"] == "2026-12-03T12:00:00+00:00"
    back = codec.decode(Table, data)
    assert back == TABLE
    assert isinstance(back.cards, tuple) and isinstance(back.seen, frozenset)
    assert back.by_turn == {1: "ann", 10: "bob"}
    assert isinstance(back.scores, MappingProxyType) and type(back.by_turn) is dict  # a Mapping: read-only
    assert codec.kind(Table).check(data)


@pytest.mark.parametrize(
    ("hint", "value"),
    [
        (int, True),  # a bool is no int
        (int, "3"),
        (float, False),
        (str, None),
        (bool, 0),
        (list[str], ["a", 1]),
        (dict[str, int], {"a": "1"}),
        (tuple[int, str], [1, "a", 2]),
        (str | None, 3),
        (Suit, "clubs"),
        (datetime, "yesterday"),
        (Card, {"suit": "cups"}),  # no rank
        (Card, {"suit": "cups", "rank": 1.5}),
    ],
)
def test_a_value_not_of_its_type_is_refused(hint: Any, value: Any) -> None:
    assert not codec.kind(hint).check(value)
    with pytest.raises(codec.DecodeError):
        codec.decode(hint, value)


def test_a_json_native_value_is_decoded_as_itself_and_a_float_from_an_integer() -> None:
    given = {"a": [1, 2]}
    assert codec.decode(dict[str, list[int]], given) is given
    assert codec.decode(float, 2) == 2.0 and isinstance(codec.decode(float, 2), float)


def test_a_field_error_names_the_field_and_its_type_and_unknown_keys_are_ignored() -> None:
    with pytest.raises(codec.DecodeError, match=re.escape("'rank' is not int: '3'")):
        codec.decode(Card, {"suit": "cups", "rank": "3"})
    with pytest.raises(codec.DecodeError, match=re.escape("no 'rank'")):
        codec.decode(Card, {"suit": "cups"})
    assert codec.decode(Card, {"suit": "cups", "rank": 1, "newer": True}) == Card(Suit.CUPS, 1)
    assert codec.problems(Card, {"suit": 1}) == ["'suit' is not Suit: 1", "no 'rank'"]


def test_the_schema_and_the_name_follow_the_same_hint() -> None:
    assert codec.kind(str | None).name() == "str or null"
    assert codec.kind(dict[str, Any]).name() == "dict[str, any]"
    assert codec.kind(list[list[str]]).schema() == {
        "type": "array",
        "items": {"type": "array", "items": {"type": "string"}},
    }
    assert codec.kind(int | None).schema() == {"anyOf": [{"type": "integer"}, {"type": "null"}]}
    assert codec.kind(Card).schema() == {
        "type": "object",
        "properties": {"suit": {"enum": ["cups", "swords"]}, "rank": {"type": "integer"}},
        "required": ["suit", "rank"],
    }


def test_a_type_with_no_json_form_is_refused_when_read() -> None:
    with pytest.raises(TypeError, match="no JSON form"):
        codec.kind(bytes)
    with pytest.raises(TypeError, match="no JSON form"):
        codec.encode(object())


# -- one walker ---------------------------------------------------------------------------------

WALKING = re.compile(r"\b(get_type_hints|get_origin|get_args)\b")


def walkers(root: Path) -> list[str]:
    """The modules of ``libs`` and ``services`` outside ``libs/codec`` that read type hints."""
    found = []
    for folder in ("libs", "services"):
        for path in sorted((root / folder).rglob("*.py")):
            relative = path.relative_to(root).as_posix()
            if not relative.startswith("libs/codec/") and WALKING.search(path.read_text()):
                found.append(relative)
    return found


def test_only_the_codec_walks_type_hints() -> None:
    assert walkers(PROJECT_ROOT) == []


def test_a_second_walker_is_found(tmp_path: Path) -> None:
    planted = tmp_path / "libs" / "kit" / "walker.py"
    planted.parent.mkdir(parents=True)
    planted.write_text("import typing\n\ndef hints(c):\n    return typing.get_type_hints(c)\n")
    (tmp_path / "services").mkdir()
    assert walkers(tmp_path) == ["libs/kit/walker.py"]
