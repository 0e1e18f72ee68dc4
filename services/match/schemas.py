"""Marshmallow schemas of the match API (in: strict, unknown fields are 422; out: documentation)."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import validate as v

from libs.web import StrictInteger, StrictSchema
from services.match.domain import MODES, PLAYER_COMMANDS


def id_field() -> ma.fields.String:
    """An instance id ("c17") or "hero"."""
    return ma.fields.String(validate=v.Length(min=1, max=16))


def deck_field(**kwargs: Any) -> ma.fields.List:
    """A deck as card ids (its legality is the rules engine's to judge: 422 ``invalid_deck``)."""
    return ma.fields.List(
        ma.fields.String(validate=v.Length(min=1, max=40)), validate=v.Length(max=40), **kwargs
    )


_FIELDS_OF = {
    "mulligan": {"cards"},
    "play": {"card", "position", "target"},
    "attack": {"attacker", "target"},
    "end_turn": set(),
    "concede": set(),
}
_REQUIRED = {"play": {"card"}, "attack": {"attacker", "target"}, "mulligan": {"cards"}}


class CommandIn(StrictSchema):
    type = ma.fields.String(required=True, validate=v.OneOf(PLAYER_COMMANDS))
    cards = ma.fields.List(id_field(), validate=v.Length(max=10))
    card = id_field()
    position = StrictInteger(validate=v.Range(min=0, max=6))
    target = id_field()
    attacker = id_field()
    expected_version = StrictInteger(validate=v.Range(min=0, max=2**31 - 1))

    @ma.validates_schema
    def _fields_fit_the_type(self, data: dict[str, Any], **kwargs: Any) -> None:
        kind = data.get("type")
        if kind not in _FIELDS_OF:
            return
        given = set(data) - {"type", "expected_version"}
        extra = given - _FIELDS_OF[kind]
        missing = _REQUIRED.get(kind, set()) - given
        errors = {f: [f"not a field of a {kind} command"] for f in sorted(extra)}
        errors.update({f: [f"required by a {kind} command"] for f in sorted(missing)})
        if errors:
            raise ma.ValidationError(errors)


class EventsQuery(StrictSchema):
    after = ma.fields.Integer(load_default=0, validate=v.Range(min=0, max=2**31 - 1))
    wait = ma.fields.Float(load_default=0.0, validate=v.Range(min=0, max=25))


class ListQuery(StrictSchema):
    active = ma.fields.Boolean(load_default=False)


class PracticeIn(StrictSchema):
    deck = deck_field()


class AdminPlayer(StrictSchema):
    id = ma.fields.String(required=True, validate=v.Length(min=1, max=64))
    deck = deck_field(required=True)


class AdminSetup(StrictSchema):
    players = ma.fields.List(ma.fields.Nested(AdminPlayer), required=True, validate=v.Length(equal=2))
    first = ma.fields.String(validate=v.Length(min=1, max=64))
    shuffle = ma.fields.Boolean(load_default=True)
    arcana = ma.fields.List(ma.fields.String(validate=v.Length(min=1, max=40)), validate=v.Length(equal=6))
    seed = StrictInteger(validate=v.Range(min=0, max=2**63 - 1))
    date = ma.fields.String(validate=v.Length(min=10, max=10))


class AdminMatchIn(StrictSchema):
    mode = ma.fields.String(load_default="admin", validate=v.OneOf(MODES))
    setup = ma.fields.Nested(AdminSetup, required=True)


class CreatedOut(ma.Schema):
    match_id = ma.fields.String(required=True)
    version = ma.fields.Integer(required=True)
    bot = ma.fields.String(allow_none=True)


class EventOut(ma.Schema):
    version = ma.fields.Integer()
    type = ma.fields.String()
    occurred_at = ma.fields.String()
    data = ma.fields.Dict()


class EventsOut(ma.Schema):
    version = ma.fields.Integer()
    events = ma.fields.List(ma.fields.Nested(EventOut))


def awaiting_field() -> ma.fields.List:
    """The players the match waits for now (both at the mulligan; none once it has ended)."""
    return ma.fields.List(ma.fields.String())


class CommandOut(EventsOut):
    legal_commands = ma.fields.List(ma.fields.Dict())
    awaiting = awaiting_field()


class LegalOut(ma.Schema):
    version = ma.fields.Integer()
    commands = ma.fields.List(ma.fields.Dict())
    awaiting = awaiting_field()
