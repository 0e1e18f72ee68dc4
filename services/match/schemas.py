"""Marshmallow schemas of the match API (in: strict, unknown fields are 422; out: documentation)."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import validate as v

from libs.rules import ARCANA, CATALOG
from libs.rules.constants import DECK_SIZE, MAX_COPIES
from libs.web import StrictInteger, StrictSchema, UnionSchema
from services.match.domain import MODES, PLAYER_COMMANDS


def id_field(**kwargs: Any) -> ma.fields.String:
    """An instance id ("c17") or "hero"."""
    return ma.fields.String(validate=v.Length(min=1, max=16), **kwargs)


_CARD_IDS = sorted(CATALOG)
_ARCANA_IDS = sorted(ARCANA)


def deck_field(**kwargs: Any) -> ma.fields.List:
    """A deck as card ids. Its legality is the rules engine's to judge (422 ``invalid_deck``): the
    document states the card ids and the size, the server refuses with the engine's code."""
    return ma.fields.List(
        ma.fields.String(validate=v.Length(min=1, max=40), metadata={"enum": _CARD_IDS}),
        validate=v.Length(max=40),
        metadata={
            "minItems": DECK_SIZE,
            "maxItems": DECK_SIZE,
            "description": f"{DECK_SIZE} card ids of the catalog, at most {MAX_COPIES} copies of a card "
            f"(1 of a legendary); refused with 422 `invalid_deck` otherwise",
        },
        **kwargs,
    )


def _command_type(kind: str) -> ma.fields.String:
    return ma.fields.String(required=True, validate=v.OneOf([kind]))


class _Command(StrictSchema):
    expected_version = StrictInteger(
        validate=v.Range(min=0, max=2**31 - 1),
        metadata={"description": "the match version the command was decided on (stale: 409)"},
    )


class MulliganCommand(_Command):
    """Return ``cards`` (up to 10 instance ids of the hand) and draw as many."""

    type = _command_type("mulligan")
    cards = ma.fields.List(id_field(), required=True, validate=v.Length(max=10))


class PlayCommand(_Command):
    """Play ``card`` from the hand: a unit at ``position`` of the board, a spell on ``target``."""

    type = _command_type("play")
    card = id_field(required=True)
    position = StrictInteger(validate=v.Range(min=0, max=6))
    target = id_field()


class AttackCommand(_Command):
    """``attacker`` (a unit of yours) attacks ``target`` (an enemy unit or "hero")."""

    type = _command_type("attack")
    attacker = id_field(required=True)
    target = id_field(required=True)


class EndTurnCommand(_Command):
    type = _command_type("end_turn")


class ConcedeCommand(_Command):
    type = _command_type("concede")


class CommandIn(UnionSchema):
    """A player's command; ``type`` says which (a field of another type is refused)."""

    DISCRIMINATOR = "type"
    VARIANTS = {
        "mulligan": MulliganCommand,
        "play": PlayCommand,
        "attack": AttackCommand,
        "end_turn": EndTurnCommand,
        "concede": ConcedeCommand,
    }


assert tuple(CommandIn.VARIANTS) == PLAYER_COMMANDS, "one schema per player command"


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
    first = ma.fields.String(
        validate=v.Length(min=1, max=64),
        metadata={"description": "one of the players' ids (422 `invalid_setup` otherwise)"},
    )
    shuffle = ma.fields.Boolean(load_default=True)
    arcana = ma.fields.List(
        ma.fields.String(validate=v.Length(min=1, max=40), metadata={"enum": _ARCANA_IDS}),
        validate=v.Length(equal=6),
        metadata={
            "uniqueItems": True,
            "description": "the spread in order: 2 early, 2 mid, 2 ending arcana, distinct "
            "(422 `invalid_arcana` otherwise)",
        },
    )
    seed = StrictInteger(validate=v.Range(min=0, max=2**63 - 1))
    date = ma.fields.String(
        validate=v.Length(min=10, max=10),
        metadata={"description": "an ISO date, YYYY-MM-DD (422 `invalid_setup` otherwise)"},
    )


class AdminMatchIn(StrictSchema):
    mode = ma.fields.String(
        load_default="admin",
        validate=v.OneOf(["admin"]),
        metadata={"description": "always `admin`: operator matches pay and move nothing"},
    )
    setup = ma.fields.Nested(AdminSetup, required=True)


class CreatedOut(ma.Schema):
    match_id = ma.fields.String(required=True)
    version = ma.fields.Integer(required=True)
    bot = ma.fields.String(allow_none=True)


# The hot answers (events, commands, legal commands) are built as dicts by the views and documented
# here with ``alt_response(..., success=True)``: dumping hundreds of legal commands through
# marshmallow on every command cost more than building them.


class EventOut(ma.Schema):
    version = ma.fields.Integer()
    type = ma.fields.String()
    occurred_at = ma.fields.String()
    data = ma.fields.Dict()


def awaiting_field() -> ma.fields.List:
    """The players the match waits for now (both at the mulligan; none once it has ended)."""
    return ma.fields.List(ma.fields.String())


class EventsOut(ma.Schema):
    """Events as the caller may see them, and what the match expects next: a client that polls
    learns from the same answer whether it is its move and which commands it may post."""

    version = ma.fields.Integer()
    events = ma.fields.List(ma.fields.Nested(EventOut))
    legal_commands = ma.fields.List(
        ma.fields.Dict(), metadata={"description": "the caller's, at `version`; empty unless awaited"}
    )
    awaiting = awaiting_field()


class CommandOut(EventsOut):
    """The events a command recorded, and what the match expects next (as ``EventsOut``)."""


class LegalOut(ma.Schema):
    version = ma.fields.Integer()
    commands = ma.fields.List(ma.fields.Dict())
    awaiting = awaiting_field()


# Documentation of answers the views build as dicts (``alt_response(..., success=True)``: nothing is
# re-serialised). Open where the rules engine's view may grow (``unknown = INCLUDE``).


class MatchSummaryOut(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    mode = ma.fields.String(required=True, validate=v.OneOf(MODES))
    players = ma.fields.List(ma.fields.String(), required=True)
    status = ma.fields.String(required=True, validate=v.OneOf(["created", "mulligan", "playing", "ended"]))
    version = ma.fields.Integer(required=True)
    turn = ma.fields.Integer(required=True)
    active_player = ma.fields.String(required=True, allow_none=True)
    deadline = ma.fields.String(required=True, allow_none=True, metadata={"format": "date-time"})
    winner = ma.fields.String(required=True, allow_none=True)
    reason = ma.fields.String(required=True, allow_none=True)
    created_at = ma.fields.AwareDateTime(required=True)


class MatchListOut(ma.Schema):
    matches = ma.fields.List(ma.fields.Nested(MatchSummaryOut), required=True)


class MatchViewOut(ma.Schema):
    """The match as the caller sees it (``libs/rules/README.md``: the view)."""

    class Meta:
        unknown = ma.INCLUDE

    match_id = ma.fields.UUID(required=True)
    phase = ma.fields.String(required=True)
    turn = ma.fields.Integer(required=True)
    round = ma.fields.Integer(required=True)
    active_player = ma.fields.String(required=True, allow_none=True)
    winner = ma.fields.String(required=True, allow_none=True)
    reason = ma.fields.String(required=True, allow_none=True)
    arcana = ma.fields.Dict(required=True)
    you = ma.fields.Dict(required=True, metadata={"description": "your side, with your hand"})
    opponent = ma.fields.Dict(required=True, metadata={"description": "their side, no hand"})
    version = ma.fields.Integer(required=True)
    mode = ma.fields.String(required=True, validate=v.OneOf(MODES))
    players = ma.fields.List(ma.fields.String(), required=True)
    bot = ma.fields.String(required=True, allow_none=True)
    deadline = ma.fields.String(required=True, allow_none=True, metadata={"format": "date-time"})
    awaiting = awaiting_field()
    connected = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Boolean(), required=True)


class CatalogOut(ma.Schema):
    cards = ma.fields.List(ma.fields.Dict(), required=True)
    arcana = ma.fields.List(ma.fields.Dict(), required=True)
