"""libs.web's contract pieces on their own: a discriminated union of schemas, whole-string patterns."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
import pytest

from libs.web import FullMatch, StrictSchema, UnionSchema


class Walk(StrictSchema):
    kind = ma.fields.String(required=True, validate=ma.validate.OneOf(["walk"]))
    steps = ma.fields.Integer(required=True)


class Wait(StrictSchema):
    kind = ma.fields.String(required=True, validate=ma.validate.OneOf(["wait"]))


class Move(UnionSchema):
    DISCRIMINATOR = "kind"
    VARIANTS = {"walk": Walk, "wait": Wait}


def test_a_union_loads_with_the_variant_its_discriminator_names() -> None:
    assert Move().load({"kind": "walk", "steps": 3}) == {"kind": "walk", "steps": 3}
    assert Move().load({"kind": "wait"}) == {"kind": "wait"}


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"kind": "wait", "steps": 3}, "steps"),  # a field of another variant
        ({"kind": "walk"}, "steps"),
        ({"kind": "run"}, "kind"),
        ({"kind": 1}, "kind"),
        ({}, "kind"),
    ],
)
def test_a_union_refuses_what_its_variant_refuses(data: dict[str, Any], field: str) -> None:
    with pytest.raises(ma.ValidationError) as err:
        Move().load(data)
    assert field in err.value.messages


def test_a_union_refuses_what_is_not_an_object() -> None:
    with pytest.raises(ma.ValidationError):
        Move().load(["walk"])


def test_full_match_matches_whole_strings_and_documents_an_anchored_pattern() -> None:
    rule = FullMatch("[a-z]{3}")
    assert rule("abc") == "abc"
    for bad in ("abcd", "ab", "abc\n", "\nabc", 5):
        with pytest.raises(ma.ValidationError):
            rule(bad)
    assert rule.regex.pattern == "^(?:[a-z]{3})$"


@pytest.mark.parametrize("fmt", [">i", ">i16s", ">q", ">iq", ">H"])
def test_every_string_of_a_cursors_pattern_is_a_position_and_nothing_else_is(fmt: str) -> None:
    import random
    import re

    from libs.web.cursors import Cursor, InvalidCursor

    cursor = Cursor(fmt)
    rng = random.Random(fmt)
    regex = re.compile(cursor.pattern)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    for _ in range(500):
        values = cursor.struct.unpack(rng.randbytes(cursor.struct.size))
        assert regex.match(cursor.encode(*values)) and cursor.decode(cursor.encode(*values)) == values
        text = "".join(rng.choice(alphabet) for _ in range(cursor.length))
        if regex.match(text):
            assert cursor.encode(*cursor.decode(text)) == text  # one spelling per position
        else:
            with pytest.raises(InvalidCursor):
                cursor.decode(text)
    for bad in ("", "A" * (cursor.length + 1), "A" * (cursor.length - 1) + "=", "A" * cursor.length + "\n"):
        with pytest.raises(InvalidCursor):
            cursor.decode(bad)


def test_query_integers_and_dates_take_only_what_their_type_and_format_document() -> None:
    from libs.web import IsoDate, QueryInteger

    assert QueryInteger().deserialize("-12") == -12
    for bad in (" 5", "5_0", "1.5", "\u0665", "5\n"):
        with pytest.raises(ma.ValidationError):
            QueryInteger().deserialize(bad)
    assert str(IsoDate().deserialize("2026-12-01")) == "2026-12-01"
    for bad in ("20261201", "2026-W01-1", "2026-1-5", "2026-12-01\n", "2026-02-30"):
        with pytest.raises(ma.ValidationError):
            IsoDate().deserialize(bad)
