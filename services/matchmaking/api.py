"""HTTP of the matchmaking service (every endpoint needs a player's bearer token; a player sees
and cancels only their own tickets: anyone else's is 404).

- ``POST /v1/queue {mode: ranked | casual, game?: arcana | line | arena, sizes?: [2, 3, 4]}`` → 202
  the waiting ticket (``Idempotency-Key`` honoured); 409 ``ticket_already_open`` (details: its
  ticket id), ``match_in_progress`` (details: the unfinished ranked or casual match's id) or
  ``ranked_locked`` (the line's ranked queue before 3 training battles; details: how many are
  left); 422 ``illegal_deck`` (details: the deck's problems), ``no_active_deck`` (the line: no line
  built), ``invalid_mode`` (a mode the game lacks: the arena is casual only), ``invalid_sizes``
  (``sizes`` for a game other than the arena) or ``validation_error``.
- ``GET /v1/queue/{ticket}`` → 200 ``waiting`` (seconds waited, rating window; the arena: how many
  wait per table size), ``paired``,
  ``matched`` (match id), ``cancelled`` or ``failed`` (reason); polling keeps a waiting ticket
  alive (30 s without a poll: cancelled as abandoned). 404 ``ticket_not_found``.
- ``DELETE /v1/queue/{ticket}`` → 200 the cancelled ticket; 409 ``ticket_not_waiting``; 404.

Joins and cancels together: at most 10 a minute per player (429 ``too_many_requests`` with
``Retry-After``). Closed tickets leave the ``tickets`` read model after the purge policy's
``ARCANA_CLOSED_TICKETS_KEEP_HOURS``; their events stay, so ``GET`` still answers them.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma

from libs import clock
from libs.kit import ErrorTable, Problem
from libs.kit.limits import TOO_MANY_REQUESTS, PlayerLimit, TooManyRequests, limited
from libs.kit.web import current_service
from libs.web import (
    Blueprint,
    ErrorSchema,
    StrictSchema,
    current_player,
    idempotent,
    request_transaction,
    require_player,
)
from libs.web.contract import KEEPS_RESOURCE, uuid_path
from services.matchmaking.domain import (
    CANCELLED,
    DEFAULT_GAME,
    FAILED,
    MATCHED,
    MODES,
    PAIRED,
    WAITING,
    IllegalDeck,
    InvalidMode,
    InvalidSizes,
    NoActiveDeck,
    RankedLocked,
    TicketNotWaiting,
    UnknownGame,
    queued_games,
    table_sizes_offered,
)
from services.matchmaking.service import (
    MatchInProgress,
    MatchmakingService,
    TicketAlreadyOpen,
    TicketNotFound,
)

ERRORS = ErrorTable(
    {
        TicketNotFound: Problem(404, "ticket_not_found", "No such ticket."),
        MatchInProgress: Problem(
            409,
            "match_in_progress",
            "Finish your match before you queue again: one match at a time.",
            details=lambda e: {"match_id": e.match_id},
        ),
        TicketAlreadyOpen: Problem(
            409,
            "ticket_already_open",
            "You already have an open ticket.",
            details=lambda e: {"ticket_id": e.ticket_id},
        ),
        RankedLocked: Problem(
            409,
            "ranked_locked",
            lambda e: f"Ranked {e.game} opens after {e.needed} training battles: {e.left} to go.",
            details=lambda e: {"training_battles_left": e.left, "training_battles_needed": e.needed},
        ),
        TicketNotWaiting: Problem(
            409,
            "ticket_not_waiting",
            lambda e: f"The ticket is {e.status}: only a waiting ticket can be cancelled.",
            details=lambda e: {"status": e.status},
        ),
        IllegalDeck: Problem(
            422,
            "illegal_deck",
            "Your active deck is not legal.",
            details=lambda e: {"problems": e.problems},
            rules=True,  # the active deck economy last published: no request names it
        ),
        NoActiveDeck: Problem(
            422,
            "no_active_deck",
            lambda e: f"Build and activate a {e.game} deck before you queue.",
            details=lambda e: {"game": e.game},
            rules=True,  # the decks economy published: no request names one
        ),
        InvalidMode: Problem(422, "invalid_mode", lambda e: str(e), rules=True),  # e.g. ranked arena
        InvalidSizes: Problem(422, "invalid_sizes", lambda e: str(e), rules=True),  # sizes: the arena's
        UnknownGame: Problem(422, "invalid_game", lambda e: str(e)),
        TooManyRequests: TOO_MANY_REQUESTS,
    }
)

# Joining and cancelling, together: ARCANA_QUEUE_ACTIONS_PER_WINDOW, ARCANA_QUEUE_ACTIONS_WINDOW_SECONDS.
QUEUE_ACTIONS = PlayerLimit("queue", "QUEUE_ACTIONS", per_window=10, window_seconds=60)

_TICKET_ID = uuid_path("ticket_id", "A ticket of yours (anything else: 404 `ticket_not_found`).")

blp = Blueprint(
    "matchmaking",
    __name__,
    description="Queue for ranked and casual matches of Arcana, the line and the arena.",
)


def _distinct(values: list[int]) -> None:
    if len(set(values)) != len(values):
        raise ma.ValidationError("each size once")


def _queued(game: str) -> None:
    """A game that offers a queue (read when asked: the games are named by configuration)."""
    offered = queued_games()
    if game not in offered:
        raise ma.ValidationError(f"Must be one of: {', '.join(offered)}.")


GAMES = queued_games()  # for the document; requests are checked against the games hosted then
TABLE_SIZES = table_sizes_offered()


class QueueIn(StrictSchema):
    mode = ma.fields.String(
        required=True,
        validate=ma.validate.OneOf(MODES),
        metadata={"description": "the arena: casual only (ranked: 422 `invalid_mode`)"},
    )
    game = ma.fields.String(load_default=DEFAULT_GAME, validate=_queued, metadata={"enum": GAMES})
    sizes = ma.fields.List(
        ma.fields.Integer(validate=ma.validate.OneOf(TABLE_SIZES)),
        validate=[ma.validate.Length(min=1, max=len(TABLE_SIZES)), _distinct],
        metadata={
            "description": "the arena only: the table sizes you accept, each once (default all); "
            "another game: 422 `invalid_sizes`",
            "uniqueItems": True,
        },
    )


class TicketOut(ma.Schema):
    ticket_id = ma.fields.String(required=True)
    game = ma.fields.String(required=True, metadata={"enum": GAMES})
    mode = ma.fields.String(required=True, metadata={"enum": list(MODES)})
    sizes = ma.fields.List(
        ma.fields.Integer(), required=True, metadata={"description": "the table sizes it accepts"}
    )
    status = ma.fields.String(
        required=True,
        metadata={
            "enum": [WAITING, PAIRED, MATCHED, CANCELLED, FAILED],
            "description": "waiting | paired | matched | cancelled | failed",
        },
    )
    waited_seconds = ma.fields.Float(required=True)
    rating = ma.fields.Integer(required=True, metadata={"description": "the rating the ticket is paired by"})
    window = ma.fields.Integer(
        allow_none=True, metadata={"description": "ranked, waiting: ± rating accepted now; null = any"}
    )
    waiting = ma.fields.Dict(
        keys=ma.fields.String(),
        values=ma.fields.Integer(),
        metadata={
            "description": "arena, waiting: per table size it accepts, how many waiting arena tickets "
            "(this one included) accept that size"
        },
    )
    table_size = ma.fields.Integer(metadata={"description": "arena, once seated: the players at its table"})
    match_id = ma.fields.String(metadata={"description": "once matched"})
    reason = ma.fields.String(metadata={"description": "cancelled: player | abandoned; failed: the code"})
    message = ma.fields.String(allow_none=True)
    problems = ma.fields.List(ma.fields.String())


def _service() -> MatchmakingService:
    svc: MatchmakingService = current_service()
    return svc


def _me() -> str:
    return str(current_player())


@blp.route("/v1/queue", methods=["POST"])
@require_player
@limited(QUEUE_ACTIONS)
@idempotent
@blp.arguments(QueueIn)
@blp.response(202, TicketOut)
@blp.alt_response(
    409, schema=ErrorSchema, description="ticket_already_open, match_in_progress, ranked_locked"
)
@blp.alt_response(
    422,
    schema=ErrorSchema,
    description="illegal_deck, no_active_deck, invalid_mode, invalid_sizes, validation_error",
)
def join(args: dict[str, Any]) -> Any:
    """Join a game's ranked or casual queue with your active deck of that game."""
    ticket = _service().join(
        _me(), args["mode"], request_transaction, game=args["game"], sizes=args.get("sizes")
    )
    return MatchmakingService.describe(ticket, ticket.opened_at)  # as opened: nothing waited yet


@blp.route("/v1/queue/<ticket_id>", methods=["GET"], parameters=_TICKET_ID)
@require_player
@blp.response(200, TicketOut)
@blp.alt_response(404, schema=ErrorSchema, description="ticket_not_found")
def look(ticket_id: str) -> Any:
    """Your ticket now (poll it at least every 30 s while it waits)."""
    return _service().view(_me(), ticket_id)


@blp.route("/v1/queue/<ticket_id>", methods=["DELETE"], parameters=_TICKET_ID)
@require_player
@limited(QUEUE_ACTIONS)
@blp.doc(**{KEEPS_RESOURCE: True})  # GET then answers the ticket as `cancelled`
@blp.response(200, TicketOut)
@blp.alt_response(404, schema=ErrorSchema, description="ticket_not_found")
@blp.alt_response(409, schema=ErrorSchema, description="ticket_not_waiting")
def cancel(ticket_id: str) -> Any:
    """Leave the queue (only a waiting ticket)."""
    return MatchmakingService.describe(_service().cancel(_me(), ticket_id, request_transaction), clock.now())
