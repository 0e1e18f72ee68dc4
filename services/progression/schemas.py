"""Marshmallow schemas of the progression API."""

from __future__ import annotations

import marshmallow as ma

from libs.web import IsoDate, StrictSchema


class QuestOut(ma.Schema):
    id = ma.fields.String(required=True)
    difficulty = ma.fields.String(required=True)
    title = ma.fields.String(required=True)
    target = ma.fields.Integer(required=True)
    progress = ma.fields.Integer(required=True)
    completed = ma.fields.Boolean(required=True)
    coins = ma.fields.Integer(required=True)
    xp = ma.fields.Integer(required=True)


class QuestsOut(ma.Schema):
    day = ma.fields.Date(required=True)
    quests = ma.fields.List(ma.fields.Nested(QuestOut), required=True)
    swap_available = ma.fields.Boolean(
        required=True,
        metadata={
            "description": "whether a swap is possible now: false once today's swap is used, and "
            "when every quest of today is completed (a completed quest cannot be swapped)"
        },
    )


class ForgivenessOut(ma.Schema):
    available = ma.fields.Boolean(required=True)
    next_available_on = ma.fields.Date(allow_none=True)
    cooldown_days = ma.fields.Integer(required=True)


class StreakDayOut(ma.Schema):
    day = ma.fields.Date(required=True)
    kept = ma.fields.Boolean(required=True)
    streak_day = ma.fields.Integer(allow_none=True)
    forgiven = ma.fields.Boolean(required=True)


class StreakOut(ma.Schema):
    day = ma.fields.Date(required=True)
    streak_day = ma.fields.Integer(required=True, metadata={"description": "1..7; 0: no streak to go on"})
    kept_today = ma.fields.Boolean(required=True)
    forgiveness = ma.fields.Nested(ForgivenessOut, required=True)
    history = ma.fields.List(ma.fields.Nested(StreakDayOut), required=True)


class SeasonOut(ma.Schema):
    id = ma.fields.String(required=True)
    name = ma.fields.String(required=True)
    start = ma.fields.Date(required=True)
    end = ma.fields.Date(required=True)


class CosmeticOut(ma.Schema):
    id = ma.fields.String(required=True)
    kind = ma.fields.String(required=True)
    name = ma.fields.String(required=True)


class PassOut(ma.Schema):
    season = ma.fields.Nested(SeasonOut, required=True)
    xp = ma.fields.Integer(required=True)
    level = ma.fields.Integer(required=True)
    xp_into_level = ma.fields.Integer(required=True)
    xp_per_level = ma.fields.Integer(required=True)
    unlocked = ma.fields.List(ma.fields.Nested(CosmeticOut), required=True)


class TrackLevelOut(ma.Schema):
    level = ma.fields.Integer(required=True)
    xp_required = ma.fields.Integer(required=True)
    reward = ma.fields.Nested(CosmeticOut, required=True)


class SeasonCosmeticsOut(ma.Schema):
    season = ma.fields.Nested(SeasonOut, required=True)
    level = ma.fields.Integer(required=True, metadata={"description": "the pass level reached"})
    unlocked = ma.fields.List(ma.fields.Nested(CosmeticOut), required=True)


class CosmeticsOut(ma.Schema):
    seasons = ma.fields.List(
        ma.fields.Nested(SeasonCosmeticsOut),
        required=True,
        metadata={"description": "every season with a level reached, newest first: its cosmetics are yours"},
    )


class TrackOut(ma.Schema):
    season = ma.fields.Nested(SeasonOut, required=True)
    levels = ma.fields.List(ma.fields.Nested(TrackLevelOut), required=True)


class DayQuery(StrictSchema):
    date = IsoDate(metadata={"description": "YYYY-MM-DD (UTC); default today"})


def daily_out(name: str, doc: str) -> type[ma.Schema]:
    """The answer of a game's ``today``: the date, and under ``name`` what the game shows of it."""
    fields: dict[str, ma.fields.Field] = {
        "date": ma.fields.Date(required=True),
        name: ma.fields.Dict(required=True, metadata={"description": f"the {doc} of that date"}),
    }
    return ma.Schema.from_dict(fields, name=f"{name.capitalize()}Out")


class LineProgressOut(ma.Schema):
    arena_xp = ma.fields.Integer(
        required=True,
        metadata={"description": "the line's arena XP (20 a win that gives XP), apart from the pass"},
    )
    training_battles = ma.fields.Integer(
        required=True,
        metadata={
            "description": "line practice matches finished, won or lost (3 unlock the line's ranked queue)"
        },
    )
