"""Operators' HTTP on ratings (operator token; docs/operations.md, "Operator actions"):

- ``POST /v1/admin/rating-voids`` ``{match_id, reason}`` → 201 each player's rating before and
  after; 404 ``rating_change_not_found`` (the match moved no rating: not ranked, not counted, or
  unknown); 409 ``already_voided``; 422 ``validation_error``.

The void is a compensating ``RatingChangeVoided`` per player (the ``RatingChanged`` stays), recorded
with the operator and the reason in ratings' ``audit`` stream.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma

from libs.kit import ErrorTable, Problem
from libs.kit.web import current_service
from libs.web import (
    Blueprint,
    ErrorSchema,
    StrictSchema,
    current_operator,
    request_transaction,
    require_operator,
)
from libs.web.audit import reason_field
from services.ratings import admin
from services.ratings.service import RatingsService

ERRORS = ErrorTable(
    {
        admin.NoRatingChange: Problem(404, "rating_change_not_found", "This match moved no rating."),
        admin.AlreadyVoided: Problem(409, "already_voided", "This match's rating change was voided already."),
    }
)

blp = Blueprint("ratings-admin", __name__, description="Operators: void a match's rating change.")


class VoidIn(StrictSchema):
    match_id = ma.fields.UUID(required=True, metadata={"description": "the ranked match"})
    reason = reason_field()


class MovedOut(ma.Schema):
    player_id = ma.fields.String(required=True)
    game = ma.fields.String(required=True)
    before = ma.fields.Integer(required=True, metadata={"description": "the visible rating before the void"})
    after = ma.fields.Integer(required=True, metadata={"description": "the visible rating after it"})
    hidden_before = ma.fields.Integer(required=True)
    hidden_after = ma.fields.Integer(required=True)


class VoidOut(ma.Schema):
    match_id = ma.fields.String(required=True)
    players = ma.fields.List(ma.fields.Nested(MovedOut), required=True)


@blp.route("/v1/admin/rating-voids", methods=["POST"])
@require_operator
@blp.arguments(VoidIn)
@blp.response(201, VoidOut)
@blp.alt_response(404, schema=ErrorSchema, description="rating_change_not_found")
@blp.alt_response(409, schema=ErrorSchema, description="already_voided")
def void_rating(args: dict[str, Any]) -> Any:
    """Operators: void what a ranked match moved of its players' ratings, with a reason."""
    svc: RatingsService = current_service()
    match_id = str(args["match_id"])
    moved = admin.void_match(svc, match_id, current_operator(), args["reason"], request_transaction)
    return {"match_id": match_id, "players": moved}
