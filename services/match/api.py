"""HTTP of the match service. Each endpoint: validate, build the command, dispatch, one success code.

- ``GET  /v1/matches`` → 200 the caller's matches (``?active=true``: running ones only)
- ``GET  /v1/matches/{id}`` → 200 the caller's view + ``version``; 404 ``match_not_found``
- ``GET  /v1/matches/{id}/events?after=N&wait=S`` → 200 visible events after N (long-poll, S ≤ 25);
  429 ``too_many_requests`` (``Retry-After``) beyond the player's open long-polls in this process
- ``GET  /v1/matches/{id}/stream?after=N`` (or ``Last-Event-ID: N``) → 200 ``text/event-stream``: the
  same events pushed as they are stored (``stream.py``); 204 once the match has ended and the caller
  has every event; 429 ``too_many_requests`` beyond the player's open streams in this process
- ``POST /v1/matches/{id}/stream-tickets`` → 201 a ticket opening that stream for a minute (``?ticket=``:
  browsers, whose ``EventSource`` cannot send the Authorization header)
- ``GET  /v1/matches/{id}/legal-commands`` → 200
- ``POST /v1/matches/{id}/commands`` → 200 the new version, the caller's view of the new events,
  the caller's legal commands now (empty: wait for the opponent) and ``awaiting`` (the players
  the match waits for; empty once it has ended); 409
  ``version_conflict`` (details.current_version); 422 the engine's code or ``validation_error``
- ``POST /v1/practice`` → 201 a match of ``game`` (Arcana by default) against ``bots`` bots (your
  active deck, as economy last published it, unless a deck is given); 422 ``invalid_deck`` (an
  illegal or missing active deck: its problems), ``invalid_bots`` (not a count the game seats);
  409 ``practice_in_progress`` (one unfinished at a time: details.match_id); 429 ``too_many_requests``
  (creation rate, ``Retry-After``)
- ``GET  /v1/catalog?game=G`` → 200 (ETag, Cache-Control; 304 on If-None-Match)
- ``POST /v1/admin/matches`` → 201 (operator token; 404 when none is configured, 403 when wrong)
Only the match's players see a match; anyone else gets 404. Every player request to a match
counts as presence. All POSTs honour ``Idempotency-Key``. Each endpoint makes one call of a use case
(``service.MatchService``); the game's refusals (``libs.games.IllegalCommand``) are 422 with the
game's code.
"""

from __future__ import annotations

import functools
import hashlib
import json
import uuid
from collections.abc import Callable
from typing import Any

from flask import Response, after_this_request, request

from libs.games import IllegalCommand, IllegalDeck, registry
from libs.games.shapes import MalformedCommand
from libs.kit import ErrorTable, Problem
from libs.kit.web import current_service
from libs.web import (
    Blueprint,
    current_player,
    idempotent,
    in_idempotent_request,
    request_transaction,
    require_operator,
    require_player,
)
from services.match import schemas, stream
from services.match.domain.bracket import InvalidLineup, NoRoundOpen
from services.match.errors import (
    IllegalActiveDeck,
    MatchExists,
    MatchNotFound,
    PracticeInProgress,
    PracticeSeats,
    TooManyRequests,
    VersionConflict,
)
from services.match.service import MatchService
from services.match.usecases.tournaments import TournamentNotFound


def _game_codes() -> tuple[str, ...]:
    """Every code a hosted game refuses with (for the document)."""
    codes = {cls.code for game in registry.games() for cls in game.errors} - {MalformedCommand.code}
    return tuple(sorted(codes | {IllegalCommand.code, IllegalDeck.code}))


ERRORS = ErrorTable(
    {
        MatchNotFound: Problem(404, "match_not_found", "No such match among yours."),
        TournamentNotFound: Problem(404, "tournament_not_found", "No such tournament among yours."),
        NoRoundOpen: Problem(
            409, "no_round_open", lambda e: e.message, details=lambda e: e.details, rules=True
        ),
        InvalidLineup: Problem(
            422, "invalid_lineup", lambda e: e.message, details=lambda e: e.details, rules=True
        ),
        VersionConflict: Problem(
            409,
            "version_conflict",
            lambda e: f"The match is at version {e.current}; read it again.",
            details=lambda e: {"current_version": e.current},
        ),
        MatchExists: Problem(409, "match_exists", "Retry."),
        PracticeInProgress: Problem(
            409,
            "practice_in_progress",
            "Your practice match is not finished: resume it or concede it first.",
            details=lambda e: {"match_id": e.match_id},
            rules=True,
        ),
        TooManyRequests: Problem(
            429,
            "too_many_requests",
            "Too many requests of this kind; retry later.",
            headers=lambda e: {"Retry-After": str(e.retry_after)},
            rules=True,
        ),
        PracticeSeats: Problem(
            422, "invalid_bots", str, details=lambda e: {"allowed": e.allowed}, rules=True
        ),
        IllegalActiveDeck: Problem(
            422,
            "invalid_deck",
            lambda e: f"Your active deck is not legal: {e}",
            details=lambda e: {"problems": e.problems},
            rules=True,
        ),
        MalformedCommand: Problem(
            422,
            MalformedCommand.code,
            "Not a command of this match's game: see the fields.",
            details=lambda e: {"fields": e.fields},
            rules=True,
        ),
        IllegalCommand: Problem(
            422,
            lambda e: e.code,
            lambda e: e.message,
            codes=_game_codes(),
            rules=True,
        ),
    }
)

blp = Blueprint(
    "match", __name__, description="Matches of the hosted games: play, watch events, practice against a bot."
)

_MATCH_ID = [
    {
        "in": "path",
        "name": "match_id",
        "description": "A match of yours (anything else: 404 `match_not_found`).",
        "schema": {"type": "string", "format": "uuid"},
    }
]

# Schema instances, not classes: webargs would build a new instance (fields deep-copied) per request.
_ListQuery = schemas.ListQuery()
_EventsQuery = schemas.EventsQuery()
_StreamQuery = schemas.StreamQuery()
_CommandIn = schemas.CommandIn()
_PracticeIn = schemas.PracticeIn()
_AdminMatchIn = schemas.AdminMatchIn()
_CatalogQuery = schemas.CatalogQuery()


def _service() -> MatchService:
    svc: MatchService = current_service()
    return svc


def _match_id(raw: str) -> str:
    try:
        return str(uuid.UUID(raw))
    except ValueError:
        raise MatchNotFound(raw) from None


def _me() -> str:
    return str(current_player())


def _after_commit(action: Callable[[], None]) -> None:
    """Run ``action`` once the request's transaction has committed (its response is a success)."""

    @after_this_request
    def _run(response: Response) -> Response:
        if response.status_code < 400:
            action()
        return response


@blp.route("/v1/matches", methods=["GET"])
@require_player
@blp.arguments(_ListQuery, location="query")
@blp.alt_response(200, schema=schemas.MatchListOut, success=True)
def list_matches(query: dict[str, Any]) -> Any:
    """The caller's matches, newest first (at most 50)."""
    return {"matches": _service().reads.matches_of(_me(), query["active"])}


@blp.route("/v1/matches/<match_id>", methods=["GET"], parameters=_MATCH_ID)
@require_player
@blp.alt_response(200, schema=schemas.MatchViewOut, success=True)
def get_match(match_id: str) -> Any:
    """The match as the caller sees it, with its version."""
    return _service().reads.view(_match_id(match_id), _me())


@blp.route("/v1/matches/<match_id>/events", methods=["GET"], parameters=_MATCH_ID)
@require_player
@blp.arguments(_EventsQuery, location="query")
@blp.alt_response(200, schema=schemas.EventsOut, success=True)
def get_events(query: dict[str, Any], match_id: str) -> Any:
    """Events after version ``after`` as the caller may see them; waits up to ``wait`` s for one.
    Also whom the match now waits for, and the caller's legal commands when that is them."""
    return _service().reads.events(_match_id(match_id), _me(), query["after"], query["wait"])


_LAST_EVENT_ID = {
    "in": "header",
    "name": "Last-Event-ID",
    "required": False,
    "description": "the `id` of the last frame received: the stream resumes after it (wins over `after`)",
    "schema": {"type": "integer", "minimum": 0, "maximum": 2**31 - 1},
}
_FRAME_ID = {"type": "string", "pattern": "^[0-9]+$", "description": "the version: `Last-Event-ID` to resume"}
_STATE = {
    "type": "object",
    "required": ["version", "awaiting", "legal_commands"],
    "properties": {
        "version": {"type": "integer"},
        "awaiting": {"type": "array", "items": {"type": "string"}},
        "legal_commands": {"type": "array", "items": {"type": "object"}},
    },
}


def _frame_schema(event: str, content: dict[str, Any]) -> dict[str, Any]:
    """One kind of frame of the stream, as an object of its fields; its data is JSON."""
    return {
        "type": "object",
        "required": ["event", "id", "data"],
        "additionalProperties": False,
        "properties": {
            "event": {"type": "string", "enum": [event]},
            "id": _FRAME_ID,
            "retry": {"type": "integer"},
            "data": {"type": "string", "contentMediaType": "application/json", "contentSchema": content},
        },
    }


# `event` is "message" on the frames that name none: the match events.
_STREAM_FRAME = {
    "oneOf": [
        _frame_schema("message", {"$ref": "#/components/schemas/EventOut"}),
        _frame_schema("state", _STATE),
    ]
}
_STREAM_BODY = (
    "Server-Sent Events, as long as the match runs: `retry: 2000`; each event the caller may see as "
    "a `message` (`id`: its version, `data`: the event as `/events` gives it); after each batch an "
    "`event: state` (`id`: the version, `data`: `version`, `awaiting`, `legal_commands`); `: ping` "
    "comments while idle. It ends after the match's last event, or after some minutes (resume)."
)


@blp.route("/v1/matches/<match_id>/stream", methods=["GET"], parameters=[*_MATCH_ID, _LAST_EVENT_ID])
@stream.require_viewer
@blp.arguments(_StreamQuery, location="query")
@blp.alt_response(
    200,
    success=True,
    content_type="text/event-stream",
    schema=_STREAM_FRAME,
    description=_STREAM_BODY,
    headers={"Cache-Control": {"schema": {"type": "string"}}},
)
@blp.alt_response(204, description="The match has ended and you have every event of it: do not reconnect.")
def get_stream(query: dict[str, Any], match_id: str) -> Any:
    """The match as it happens, pushed (the long-poll's events, answers and presence on one
    response). Authorised by the bearer token, or by `ticket` (browsers). 429 `too_many_requests`
    beyond the player's open streams in one process."""
    return stream.open_stream(_service(), _match_id(match_id), query["after"])


@blp.route("/v1/matches/<match_id>/stream-tickets", methods=["POST"], parameters=_MATCH_ID)
@require_player
@blp.response(201, schemas.TicketOut)
def post_stream_ticket(match_id: str) -> Any:
    """A ticket that opens this match's stream for a minute (`?ticket=`), for a client that cannot
    send the Authorization header with it (a browser's EventSource). Sending it again is harmless:
    a ticket changes nothing."""
    mid = _match_id(match_id)
    _service().reads.system.touch(mid, _me())  # only the match's players (404 otherwise)
    return stream.ticket_for(mid)


@blp.route("/v1/matches/<match_id>/legal-commands", methods=["GET"], parameters=_MATCH_ID)
@require_player
@blp.alt_response(200, schema=schemas.LegalOut, success=True)
def get_legal_commands(match_id: str) -> Any:
    """Every command the caller may post now (empty when it is not their move)."""
    return _service().reads.legal(_match_id(match_id), _me())


@blp.route("/v1/matches/<match_id>/commands", methods=["POST"], parameters=_MATCH_ID)
@require_player
@idempotent
@blp.arguments(_CommandIn)
@blp.alt_response(200, schema=schemas.CommandOut, success=True)
def post_command(args: dict[str, Any], match_id: str) -> Any:
    """One of the match's game's commands (Arcana: mulligan, play, attack, end_turn or concede);
    ``expected_version`` optional."""
    return _service().commands.post(
        _match_id(match_id),
        _me(),
        args,
        transaction=request_transaction,
        in_outer_transaction=in_idempotent_request(),
        after_commit=_after_commit,
    )


@blp.route("/v1/practice", methods=["POST"])
@require_player
@idempotent
@blp.arguments(_PracticeIn, required=False)
@blp.response(201, schemas.CreatedOut)
def start_practice(args: dict[str, Any]) -> Any:
    """A match of ``game`` (Arcana when absent) against ``bots`` bots (1 unless the game seats more:
    the arena takes 1 to 3), at once. Deck: the card ids given, else your active deck of the game as
    economy last published it (Arcana: the starter deck before any; the line: 422 `invalid_deck`
    without one; the arena needs none); an illegal active deck is 422. Each bot plays the game's bot
    deck (the line: a line of the welcome set)."""
    game = args.get("game", registry.DEFAULT_GAME)
    return _service().creation.practice(
        _me(),
        args.get("deck"),
        game,
        bots=args["bots"],
        transaction=request_transaction,
        after_commit=_after_commit,
    )


@blp.route("/v1/admin/matches", methods=["POST"])
@require_operator
@idempotent
@blp.arguments(_AdminMatchIn)
@blp.response(201, schemas.CreatedOut)
def admin_create_match(args: dict[str, Any]) -> Any:
    """Operators: a match of ``game`` from a full setup (decks, ``seed``, the game's options: Arcana's
    ``shuffle``, ``first``, ``arcana``, ``date``), always in mode ``admin``, which pays and moves
    nothing."""
    return _service().creation.operators(
        args["game"], args["setup"], transaction=request_transaction, after_commit=_after_commit
    )


_CACHE_HEADERS = {
    "ETag": {"schema": {"type": "string"}, "description": "the catalog's version"},
    "Cache-Control": {"schema": {"type": "string"}},
}


@functools.cache
def _catalog(game: str) -> tuple[bytes, str]:
    """The game's catalog as JSON, and its tag."""
    body = json.dumps(registry.get(game).catalog(), separators=(",", ":")).encode()
    return body, hashlib.sha256(body).hexdigest()[:32]


@blp.route("/v1/catalog", methods=["GET"])
@blp.arguments(_CatalogQuery, location="query")
@blp.alt_response(200, schema=schemas.CatalogOut, success=True, headers=_CACHE_HEADERS)
@blp.alt_response(304, description="Not Modified (If-None-Match matched the ETag)", headers=_CACHE_HEADERS)
def catalog(query: dict[str, Any]) -> Any:
    """The cards of ``game`` (Arcana when absent: every card and arcana, as the rules engine defines
    them); cacheable (ETag)."""
    body, tag = _catalog(query["game"])
    headers = {"ETag": f'"{tag}"', "Cache-Control": "public, max-age=3600"}
    if request.if_none_match.contains(tag):
        return Response(status=304, headers=headers)
    return Response(body, status=200, headers=headers, content_type="application/json")
