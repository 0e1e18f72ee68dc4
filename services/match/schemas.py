"""Marshmallow schemas of the match API (in: strict, unknown fields are 422; out: documentation).

Player commands are the hosted games' (``Game.commands``, shapes as data): ``CommandIn`` is the union
of every hosted game's commands by ``type``, built from the registry when first used (after
``root.build`` loaded the games). A type two games share takes the fields of both, each as loose as
the loosest game allows (required when every game that has the type requires it), documented per
game; at dispatch the match's own game's shape is checked exactly (``libs.games.shapes``: 422
``not_this_games_command`` with the fields), then the game judges the rest (422 with its code).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import marshmallow as ma
from marshmallow import validate as v

from libs.games import CommandShape, Param, registry, shapes
from libs.web import StrictInteger, StrictSchema, UnionSchema
from services.match.domain import MODES


def id_field(**kwargs: Any) -> ma.fields.String:
    """An instance id ("c17") or "hero"."""
    return ma.fields.String(validate=v.Length(min=1, max=16), **kwargs)


# A deck is judged by its game alone (422 ``invalid_deck``): the games' card ids and sizes differ
# (a schema-wide enum of one game's ids would be false for the others), so the document states each
# hosted game's starter deck size, from the registry.


def deck_field(**kwargs: Any) -> ma.fields.List:
    """A deck as card ids. Its legality is the game's to judge (422 ``invalid_deck``)."""
    sizes = "; ".join(f"{g.name}: {len(g.starter_deck)}" for g in registry.games() if g.starter_deck)
    return ma.fields.List(
        ma.fields.String(validate=v.Length(min=1, max=40)),
        validate=v.Length(max=40),
        metadata={
            "description": "card ids of the game's catalog (`GET /v1/catalog?game=<game>`), judged by the "
            f"game (422 `invalid_deck` otherwise); its starter deck's size: {sizes}; a game without "
            "decks ignores it",
        },
        **kwargs,
    )


class _Command(StrictSchema):
    expected_version = StrictInteger(
        validate=v.Range(min=0, max=2**31 - 1),
        metadata={"description": "the match version the command was decided on (stale: 409)"},
    )


def _param_field(param: Param, required: bool) -> ma.fields.Field:
    """The marshmallow field of a command's ``Param``."""
    meta = {"description": param.doc} if param.doc else {}
    one_of = [v.OneOf(param.choices)] if param.choices else []
    if param.kind == "id":
        length = v.Length(min=1, max=param.high if param.high is not None else 40)
        return ma.fields.String(required=required, validate=[length, *one_of], metadata=meta)
    if param.kind == "ids":
        length = v.Length(min=param.low, max=param.high if param.high is not None else 40)
        item = ma.fields.String(validate=[v.Length(min=1, max=shapes.ID_MAX), *one_of])
        if param.distinct:
            return ma.fields.List(
                item, required=required, validate=[length, _distinct], metadata={**meta, "uniqueItems": True}
            )
        return ma.fields.List(item, required=required, validate=length, metadata=meta)
    if param.kind == "int":
        low = param.low if param.low is not None else -(2**31)
        high = param.high if param.high is not None else 2**31 - 1
        return StrictInteger(required=required, validate=v.Range(min=low, max=high), metadata=meta)
    if param.kind == "bool":
        return ma.fields.Boolean(required=required, metadata=meta)
    raise ValueError(f"unknown command field kind {param.kind!r}")


def _distinct(items: list[str]) -> None:
    if len(set(items)) != len(items):
        raise ma.ValidationError("the ids must be distinct")


def _loosest(params: list[Param]) -> Param:
    """One field as every game that has it allows it: the widest bounds (its own game checks the
    exact ones at dispatch, ``libs.games.shapes``)."""
    lows = [p.low for p in params]
    highs = [p.high for p in params]
    return Param(
        params[0].kind,
        low=None if None in lows else min(x for x in lows if x is not None),
        high=None if None in highs else max(x for x in highs if x is not None),
        doc="; ".join(dict.fromkeys(p.doc for p in params if p.doc)),
    )


def _command_schema(kind: str, shapes: Mapping[str, CommandShape]) -> type[ma.Schema]:
    """The schema of command ``kind`` as the games that have it shape it (``shapes``: by game name):
    the union of their fields, each as loose as the loosest game allows (a field of another kind
    in two games is any JSON value), documented per game. The match's own game checks its exact
    shape at dispatch (422 ``not_this_games_command`` with the fields)."""
    names = list(dict.fromkeys(name for shape in shapes.values() for name in shape.params))
    fields: dict[str, Any] = {"type": ma.fields.String(required=True, validate=v.OneOf([kind]))}
    for name in names:
        by_game = {g: shape.params[name] for g, shape in shapes.items() if name in shape.params}
        params = list(by_game.values())
        required = len(params) == len(shapes) and all(p.required for p in params)
        if len({p.kind for p in params}) > 1:
            docs = "; ".join(f"{g}: {p.kind}, {p.doc}" for g, p in by_game.items())
            fields[name] = ma.fields.Raw(required=required, metadata={"description": docs})
            continue
        loose = _loosest(params)
        fields[name] = _param_field(replace(loose, doc=_per_game(by_game, len(shapes) > 1)), required)
    doc = _per_game({g: shape for g, shape in shapes.items() if shape.doc})
    return type(f"{kind.title().replace('_', '')}Command", (_Command,), {**fields, "__doc__": doc or None})


def _per_game(docs: Mapping[str, Param | CommandShape], shared: bool = True) -> str:
    """Each game's words for a command or a field, named by game (one game's command: its words
    alone; a field of a ``shared`` command is named by the games that have it)."""
    if len(docs) == 1 and not shared:
        return next(iter(docs.values())).doc
    return " ".join(f"**{g}**: {d.doc}" for g, d in docs.items() if d.doc)


@functools.cache
def _variants(games: tuple[str, ...]) -> Mapping[str, type[ma.Schema]]:
    by_kind: dict[str, dict[str, CommandShape]] = {}
    for name in games:
        for kind, shape in registry.get(name).commands.items():
            by_kind.setdefault(kind, {})[name] = shape
    return {kind: _command_schema(kind, shapes) for kind, shapes in by_kind.items()}


class CommandIn(UnionSchema):
    """A player's command; ``type`` says which (a field of another type is refused). The commands of
    every hosted game (``Game.commands``), documented per game; the match's own game checks the
    command's exact shape when it is dispatched (``libs.games.shapes``: 422
    ``not_this_games_command`` with the fields, a type of another game too), then judges it (422
    with the game's code)."""

    DISCRIMINATOR = "type"

    @property
    def VARIANTS(self) -> Mapping[str, type[ma.Schema]]:  # type: ignore[override]  # computed
        return _variants(tuple(registry.names()))


def _hosted(name: str) -> None:
    if name not in registry.names():
        raise ma.ValidationError(f"Must be one of: {', '.join(registry.names())}.")


def _game_field() -> ma.fields.String:
    return ma.fields.String(
        load_default=registry.DEFAULT_GAME,
        validate=[v.Length(min=1, max=32), _hosted],
        metadata={
            "enum": registry.names(),
            "description": "a hosted game (`libs.games`); `arcana` when absent",
        },
    )


class EventsQuery(StrictSchema):
    after = ma.fields.Integer(load_default=0, validate=v.Range(min=0, max=2**31 - 1))
    wait = ma.fields.Float(load_default=0.0, validate=v.Range(min=0, max=25))


class StreamQuery(StrictSchema):
    after = ma.fields.Integer(
        load_default=0,
        validate=v.Range(min=0, max=2**31 - 1),
        metadata={"description": "the version to stream after (a `Last-Event-ID` header wins over it)"},
    )
    ticket = ma.fields.String(
        validate=v.Length(min=1, max=2048),
        metadata={
            "description": "a ticket of `POST /v1/matches/{match_id}/stream-tickets`, for clients that "
            "cannot send the Authorization header (a browser's EventSource); ignored when one is sent"
        },
    )


class TicketOut(ma.Schema):
    ticket = ma.fields.String(required=True, metadata={"description": "the `ticket` of the stream's URL"})
    expires_at = ma.fields.DateTime(
        required=True, metadata={"description": "opening a stream with it is refused (401) after this"}
    )


class CatalogQuery(StrictSchema):
    game = _game_field()


class ListQuery(StrictSchema):
    active = ma.fields.Boolean(load_default=False)


class PracticeIn(StrictSchema):
    deck = deck_field()
    game = _game_field()
    bots = StrictInteger(
        load_default=1,
        validate=v.Range(min=1, max=3),
        metadata={
            "description": "how many bots play against you: 1, or 1 to 3 in the arena (422 "
            "`invalid_bots` for a count the game does not seat)"
        },
    )


class AdminPlayer(StrictSchema):
    id = ma.fields.String(required=True, validate=v.Length(min=1, max=64))
    deck = deck_field(required=True)


class _AdminSetup(StrictSchema):
    """What every game's set-up has; each game's own options are added from the registry."""

    seed = StrictInteger(validate=v.Range(min=0, max=2**63 - 1))
    date = ma.fields.String(
        validate=v.Length(min=10, max=10),
        metadata={"description": "an ISO date, YYYY-MM-DD (422 `invalid_setup` otherwise)"},
    )


@functools.cache
def admin_setup(games: tuple[str, ...]) -> type[ma.Schema]:
    """The set-up of an operator's match for the hosted ``games``: the players (as many as some game
    seats: each game checks its own count), the seed and date, and every game's options
    (``Game.setup_options``), each as loose as the loosest game allows and documented per game, the
    game named judging its own (422 with its code; an option of another game is ignored)."""
    hosted = [registry.get(name) for name in games]
    seats = sorted(n for g in hosted for n in g.seats)
    by_option: dict[str, dict[str, Param]] = {}
    for g in hosted:
        for name, param in g.setup_options.items():
            by_option.setdefault(name, {})[g.name] = param
    fields: dict[str, Any] = {
        "players": ma.fields.List(
            ma.fields.Nested(AdminPlayer),
            required=True,
            validate=v.Length(min=seats[0], max=seats[-1]),
            metadata={"description": "as many as the game seats (422 `invalid_setup` otherwise)"},
        )
    }
    for name, params in by_option.items():
        found = list(params.values())
        loose = replace(_loosest(found), choices=_choices(found), distinct=all(p.distinct for p in found))
        fields[name] = _param_field(replace(loose, doc=_per_game(params)), required=False)
    return type("AdminSetup", (_AdminSetup,), fields)


def _choices(params: list[Param]) -> tuple[str, ...]:
    """The ids an option may hold in some game (any, when one game takes any)."""
    if any(not p.choices for p in params):
        return ()
    return tuple(sorted({c for p in params for c in p.choices}))


class AdminMatchIn(StrictSchema):
    mode = ma.fields.String(
        load_default="admin",
        validate=v.OneOf(["admin"]),
        metadata={"description": "always `admin`: operator matches pay and move nothing"},
    )
    game = _game_field()
    setup = ma.fields.Nested(lambda: admin_setup(tuple(registry.names()))(), required=True)


class CreatedOut(ma.Schema):
    match_id = ma.fields.String(required=True)
    version = ma.fields.Integer(required=True)
    bot = ma.fields.String(allow_none=True, metadata={"description": "the (first) bot's player id"})
    bots = ma.fields.List(ma.fields.String(), metadata={"description": "every bot's player id (practice)"})


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
    game = ma.fields.String(required=True)
    mode = ma.fields.String(required=True, validate=v.OneOf(MODES))
    players = ma.fields.List(ma.fields.String(), required=True)
    status = ma.fields.String(
        required=True,
        metadata={"description": "`created`, the game's phase (Arcana: `mulligan`, `playing`) or `ended`"},
    )
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
    """The match as the caller sees it: the game's view (``Game.view``; Arcana's:
    ``libs/games/arcana/README.md``) and the service's fields (``game`` to ``connected``)."""

    class Meta:
        unknown = ma.INCLUDE

    match_id = ma.fields.UUID(required=True)
    phase = ma.fields.String(metadata={"description": "Arcana: `mulligan`, `playing` or `ended`"})
    turn = ma.fields.Integer()
    round = ma.fields.Integer()
    active_player = ma.fields.String(allow_none=True)
    winner = ma.fields.String(allow_none=True)
    reason = ma.fields.String(allow_none=True)
    arcana = ma.fields.Dict(metadata={"description": "Arcana's"})
    you = ma.fields.Dict(metadata={"description": "Arcana: your side, with your hand"})
    opponent = ma.fields.Dict(metadata={"description": "Arcana: their side, no hand"})
    game = ma.fields.String(required=True)
    version = ma.fields.Integer(required=True)
    mode = ma.fields.String(required=True, validate=v.OneOf(MODES))
    players = ma.fields.List(ma.fields.String(), required=True)
    bot = ma.fields.String(required=True, allow_none=True)
    deadline = ma.fields.String(required=True, allow_none=True, metadata={"format": "date-time"})
    awaiting = awaiting_field()
    connected = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Boolean(), required=True)


class CatalogOut(ma.Schema):
    """The game's catalog (``Game.catalog``): Arcana's cards and arcana."""

    class Meta:
        unknown = ma.INCLUDE

    cards = ma.fields.List(ma.fields.Dict())
    arcana = ma.fields.List(ma.fields.Dict(), metadata={"description": "Arcana's"})
