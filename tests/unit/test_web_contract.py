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
