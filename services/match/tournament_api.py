"""HTTP of the tournaments the match service keeps (``usecases/tournaments.py``; entries are made at
the economy: ``POST /v1/<game>/tournament/entries``).

- ``GET /v1/tournaments`` → 200 the caller's brackets, newest first
- ``GET /v1/tournaments/{id}`` → 200 the bracket as an entrant sees it; 404 ``tournament_not_found``
  (unknown, or not an entrant: a bracket is its entrants' to see)
- ``PUT /v1/tournaments/{id}/lineup`` ``{"cards"}`` → 200 the bracket with the deck chosen for the
  current round; 422 ``invalid_lineup`` (not a deck of the game from your entry: details.problems),
  409 ``no_round_open`` (no round of yours takes a deck now: not started, closed, or you are out), 404
"""

from __future__ import annotations

import uuid
from typing import Any

import marshmallow as ma
from marshmallow import validate as v

from libs.kit.web import current_service
from libs.web import Blueprint, StrictSchema, current_player, request_transaction, require_player
from services.match.service import MatchService
from services.match.usecases.tournaments import TournamentNotFound

blp = Blueprint(
    "tournaments", __name__, description="Tournament brackets: see yours, choose each round's deck."
)

_ID = [
    {
        "in": "path",
        "name": "tournament_id",
        "description": "A bracket you entered (anything else: 404 `tournament_not_found`).",
        "schema": {"type": "string", "format": "uuid"},
    }
]


class LineupIn(StrictSchema):
    cards = ma.fields.List(
        ma.fields.String(validate=v.Length(min=1, max=64)),
        required=True,
        validate=v.Length(max=100),
        metadata={
            "description": "the deck for the current round, chosen from your entry (the line: five of "
            "the ten, the front first)"
        },
    )


class TournamentListOut(ma.Schema):
    tournaments = ma.fields.List(ma.fields.Dict(), required=True)


class BracketOut(ma.Schema):
    class Meta:
        unknown = ma.INCLUDE

    tournament_id = ma.fields.String(required=True)
    game = ma.fields.String(required=True)
    status = ma.fields.String(required=True, metadata={"description": "`filling`, `running` or `ended`"})
    seats = ma.fields.Integer(required=True)
    round = ma.fields.Integer(required=True, metadata={"description": "the current round (0 while filling)"})
    entrants = ma.fields.List(
        ma.fields.Dict(), required=True, metadata={"description": "player_id, bot, place"}
    )
    rounds = ma.fields.List(
        ma.fields.Dict(),
        required=True,
        metadata={
            "description": "each round's choose_until and fights: players, match_id, winner, lineups "
            "once started"
        },
    )
    you = ma.fields.Dict(
        required=True,
        metadata={
            "description": "your entry, the deck you chose for the round, whether you choose now, your place"
        },
    )


_LineupIn = LineupIn()


def _service() -> MatchService:
    svc: MatchService = current_service()
    return svc


def _id(raw: str) -> str:
    try:
        return str(uuid.UUID(raw))
    except ValueError:
        raise TournamentNotFound(raw) from None


def _me() -> str:
    return str(current_player())


@blp.route("/v1/tournaments", methods=["GET"])
@require_player
@blp.alt_response(200, schema=TournamentListOut, success=True)
def list_tournaments() -> Any:
    """The brackets you entered, newest first (at most 20)."""
    return {"tournaments": _service().tournaments.mine(_me())}


@blp.route("/v1/tournaments/<tournament_id>", methods=["GET"], parameters=_ID)
@require_player
@blp.alt_response(200, schema=BracketOut, success=True)
def get_tournament(tournament_id: str) -> Any:
    """The bracket: seats, rounds, fights (each with its match and, once it fights, both decks),
    places; your entry and your deck for the round. Only its entrants see it."""
    return _service().tournaments.bracket(_me(), _id(tournament_id))


@blp.route("/v1/tournaments/<tournament_id>/lineup", methods=["PUT"], parameters=_ID)
@require_player
@blp.arguments(_LineupIn)
@blp.alt_response(200, schema=BracketOut, success=True)
def choose_lineup(args: dict[str, Any], tournament_id: str) -> Any:
    """Your deck for the current round, from your entry, until the round's `choose_until` (then your
    default deck fights: autofill of your entry); choosing again replaces it."""
    return _service().tournaments.choose(
        _me(), _id(tournament_id), args["cards"], transaction=request_transaction
    )
