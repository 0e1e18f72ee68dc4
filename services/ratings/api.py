"""HTTP of the ratings service (every endpoint needs a player's bearer token). Every read takes
``?game=`` a game with a ladder (its offer's: ``arcana``, the default, or ``line``): Arcana's rating or
the line's MMR ladder (anything else: 422 ``validation_error``).

- ``GET /v1/ratings/me`` → 200 rating, tier, highest tier, games, wins, losses (900 before any game;
  the line: MMR 1,000, tiers ``none``).
- ``GET /v1/ratings/me/history?limit=&after=`` → 200 rating changes, newest first, ``next`` cursor.
- ``GET /v1/ratings/{player_id}`` → 200 the public part; 404 ``player_not_found``.
- ``GET /v1/leaderboard?limit=&after=`` → 200 players by rating (ties by player id), with rank and
  display name (never the username), ``next`` cursor; 400 ``invalid_cursor``.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma

from libs.kit import ErrorTable, Problem
from libs.kit.web import current_service
from libs.web import Blueprint, ErrorSchema, QueryInteger, StrictSchema, current_player, require_player
from libs.web.contract import uuid_path
from services.ratings.domain import DEFAULT_GAME, has_ladder, ladders
from services.ratings.service import (
    HISTORY_CURSOR,
    LEADERBOARD_CURSOR,
    MAX_PAGE,
    BadCursor,
    PlayerNotFound,
    RatingsService,
)

ERRORS = ErrorTable(
    {
        PlayerNotFound: Problem(404, "player_not_found", "No such player."),
        BadCursor: Problem(400, "invalid_cursor", "The `after` cursor does not have the documented format."),
    }
)

_PLAYER_ID = uuid_path("player_id", "A player's id (anything else: 404 `player_not_found`).")

blp = Blueprint("ratings", __name__, description="Ranked ratings, tiers, history and the leaderboard.")


def _laddered(game: str) -> None:
    """A game with a ladder (read when asked: the games are named by configuration)."""
    if not has_ladder(game):
        raise ma.ValidationError(f"Must be one of: {', '.join(ladders())}.")


class GameQuery(StrictSchema):
    game = ma.fields.String(
        load_default=DEFAULT_GAME,
        validate=_laddered,
        metadata={
            "description": "whose ladder: `arcana` (the rating, default) or `line` (its MMR)",
            "enum": ladders(),
        },
    )


class HistoryQuery(GameQuery):
    limit = QueryInteger(load_default=20, validate=ma.validate.Range(min=1, max=MAX_PAGE))
    after = HISTORY_CURSOR.field(load_default=None)


class LeaderboardQuery(HistoryQuery):
    after = LEADERBOARD_CURSOR.field(load_default=None)


class PublicOut(ma.Schema):
    player_id = ma.fields.String(required=True)
    display_name = ma.fields.String(
        required=True, metadata={"description": "the player's public name (never their log-in name)"}
    )
    rating = ma.fields.Integer(required=True, metadata={"description": "the rating, or the line's MMR"})
    tier = ma.fields.String(required=True, metadata={"description": "Arcana's tier; `none` on the line"})
    highest_tier = ma.fields.String(required=True)
    games = ma.fields.Integer(required=True)


class MineOut(PublicOut):
    wins = ma.fields.Integer(required=True)
    losses = ma.fields.Integer(required=True)


class HistoryItem(ma.Schema):
    match_id = ma.fields.String(required=True)
    result = ma.fields.String(required=True, metadata={"description": "`win`, `loss` or `draw`"})
    before = ma.fields.Integer(required=True)
    after = ma.fields.Integer(required=True)
    delta = ma.fields.Integer(required=True)
    tier = ma.fields.String(required=True)
    highest_tier = ma.fields.String(required=True)
    at = ma.fields.AwareDateTime(required=True)
    reason = ma.fields.String(
        allow_none=True,
        metadata={
            "description": "why the match moved nothing (delta 0): `repeat_opponent`, `early_concede`, "
            "`too_short` or `draw`; `floor` when the tier floor held the rating on a loss (your hidden "
            "rating still fell); null when it moved the rating"
        },
    )
    message = ma.fields.String(allow_none=True, metadata={"description": "the reason in words"})


class HistoryOut(ma.Schema):
    items = ma.fields.List(ma.fields.Nested(HistoryItem), required=True)
    next = HISTORY_CURSOR.field(
        required=True, allow_none=True, metadata={"description": "pass as `after` for the next page"}
    )


class LeaderboardItem(PublicOut):
    rank = ma.fields.Integer(required=True, metadata={"description": "equal ratings share a rank"})


class LeaderboardOut(ma.Schema):
    items = ma.fields.List(ma.fields.Nested(LeaderboardItem), required=True)
    next = LEADERBOARD_CURSOR.field(
        required=True, allow_none=True, metadata={"description": "pass as `after` for the next page"}
    )


def _service() -> RatingsService:
    svc: RatingsService = current_service()
    return svc


@blp.route("/v1/ratings/me", methods=["GET"])
@require_player
@blp.arguments(GameQuery, location="query")
@blp.response(200, MineOut)
def mine(query: dict[str, Any]) -> Any:
    """The caller's rating (or line MMR), tier, highest tier reached, games, wins and losses."""
    return _service().mine(str(current_player()), query["game"])


@blp.route("/v1/ratings/me/history", methods=["GET"])
@require_player
@blp.arguments(HistoryQuery, location="query")
@blp.response(200, HistoryOut)
@blp.alt_response(400, schema=ErrorSchema, description="invalid_cursor")
def history(query: dict[str, Any]) -> Any:
    """The caller's rating changes, newest first, a page at a time."""
    page = _service().history(str(current_player()), query["limit"], query["after"], query["game"])
    return {"items": page.items, "next": page.next}


@blp.route("/v1/ratings/<player_id>", methods=["GET"], parameters=_PLAYER_ID)
@require_player
@blp.arguments(GameQuery, location="query")
@blp.response(200, PublicOut)
@blp.alt_response(404, schema=ErrorSchema, description="player_not_found")
def public(query: dict[str, Any], player_id: str) -> Any:
    """Another player's public rating or line MMR (no wins and losses)."""
    return _service().public(player_id, query["game"])


@blp.route("/v1/leaderboard", methods=["GET"])
@require_player
@blp.arguments(LeaderboardQuery, location="query")
@blp.response(200, LeaderboardOut)
@blp.alt_response(400, schema=ErrorSchema, description="invalid_cursor")
def leaderboard(query: dict[str, Any]) -> Any:
    """Rated players by rating (ties by player id: stable pages), with rank and display name."""
    page = _service().leaderboard(query["limit"], query["after"], query["game"])
    return {"items": page.items, "next": page.next}
