"""HTTP of the match service. Each endpoint: validate, build the command, dispatch, one success code.

- ``GET  /v1/matches`` → 200 the caller's matches (``?active=true``: running ones only)
- ``GET  /v1/matches/{id}`` → 200 the caller's view + ``version``; 404 ``match_not_found``
- ``GET  /v1/matches/{id}/events?after=N&wait=S`` → 200 visible events after N (long-poll, S ≤ 25);
  429 ``too_many_requests`` (``Retry-After``) beyond the player's open long-polls in this process
- ``GET  /v1/matches/{id}/legal-commands`` → 200
- ``POST /v1/matches/{id}/commands`` → 200 the new version, the caller's view of the new events,
  the caller's legal commands now (empty: wait for the opponent) and ``awaiting`` (the players
  the match waits for; empty once it has ended); 409
  ``version_conflict`` (details.current_version); 422 the engine's code or ``validation_error``
- ``POST /v1/practice`` → 201 a match against the greedy bot (your active deck, as economy last
  published it, unless a deck is given); 422 ``invalid_deck`` (an illegal active deck: its problems);
  409 ``practice_in_progress`` (one unfinished at a time: details.match_id); 429 ``too_many_requests``
  (creation rate, ``Retry-After``)
- ``GET  /v1/catalog`` → 200 (ETag, Cache-Control; 304 on If-None-Match)
- ``POST /v1/admin/matches`` → 201 (operator token; 404 when none is configured, 403 when wrong)
Only the match's two players see a match; anyone else gets 404. Every player request to a match
counts as presence. All POSTs honour ``Idempotency-Key``.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable
from typing import Any

from flask import Response, after_this_request, request

from libs import fairplay
from libs.kit import ErrorTable, Problem
from libs.kit.web import current_service
from libs.rules import ARCANA, CATALOG, STARTER_DECK, Code, RuleViolation
from libs.web import (
    Blueprint,
    current_player,
    idempotent,
    in_idempotent_request,
    request_transaction,
    require_operator,
    require_player,
)
from services.match import domain, schemas
from services.match.errors import (
    IllegalActiveDeck,
    MatchExists,
    MatchNotFound,
    PracticeInProgress,
    TooManyRequests,
    VersionConflict,
)
from services.match.service import MatchService
from services.match.writing import Outcome

ERRORS = ErrorTable(
    {
        MatchNotFound: Problem(404, "match_not_found", "No such match among yours."),
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
        IllegalActiveDeck: Problem(
            422,
            "invalid_deck",
            lambda e: f"Your active deck is not legal: {e}",
            details=lambda e: {"problems": e.problems},
            rules=True,
        ),
        RuleViolation: Problem(
            422,
            lambda e: str(e.code.value),
            lambda e: e.message,
            codes=tuple(c.value for c in Code),
            rules=True,
        ),
    }
)

blp = Blueprint("match", __name__, description="Arcana matches: play, watch events, practice against a bot.")

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
_CommandIn = schemas.CommandIn()
_PracticeIn = schemas.PracticeIn()
_AdminMatchIn = schemas.AdminMatchIn()


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


def _events_out(recorded: list[Any], player: str) -> list[dict[str, Any]]:
    out = []
    for e in recorded:
        seen = domain.client_event(e.type, e.data, player)
        if seen is not None:
            seen.pop("type", None)
            out.append(
                {"version": e.version, "type": e.type, "occurred_at": e.occurred_at.isoformat(), "data": seen}
            )
    return out


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
    rows = _service().matches_of(_me(), query["active"])
    for row in rows:
        for key in ("deadline", "created_at"):
            row[key] = row[key].isoformat() if row[key] else None
    return {"matches": rows}


def _touched(match_id: str, player: str) -> Any:
    """The match as ``player`` may read it (their request also counts as presence); 404 otherwise."""
    return _service().touch(_match_id(match_id), player)


@blp.route("/v1/matches/<match_id>", methods=["GET"], parameters=_MATCH_ID)
@require_player
@blp.alt_response(200, schema=schemas.MatchViewOut, success=True)
def get_match(match_id: str) -> Any:
    """The match as the caller sees it, with its version."""
    player = _me()
    return domain.player_view(_touched(match_id, player), player)


@blp.route("/v1/matches/<match_id>/events", methods=["GET"], parameters=_MATCH_ID)
@require_player
@blp.arguments(_EventsQuery, location="query")
@blp.alt_response(200, schema=schemas.EventsOut, success=True)
def get_events(query: dict[str, Any], match_id: str) -> Any:
    """Events after version ``after`` as the caller may see them; waits up to ``wait`` s for one.
    Also whom the match now waits for, and the caller's legal commands when that is them."""
    player = _me()
    polled = _service().wait_for_events(_match_id(match_id), player, query["after"], query["wait"])
    return {
        "version": polled.version,
        "events": _events_out(polled.events, player),
        **_next_move(polled.match, player),
    }


def _next_move(m: Any, player: str) -> dict[str, Any]:
    """Whom ``m`` waits for, and ``player``'s legal commands (empty unless it waits for them)."""
    awaiting = domain.awaiting(m)
    return {
        "legal_commands": domain.player_commands(m, player) if player in awaiting else [],
        "awaiting": awaiting,
    }


@blp.route("/v1/matches/<match_id>/legal-commands", methods=["GET"], parameters=_MATCH_ID)
@require_player
@blp.alt_response(200, schema=schemas.LegalOut, success=True)
def get_legal_commands(match_id: str) -> Any:
    """Every command the caller may post now (empty when it is not their move)."""
    player = _me()
    m = _touched(match_id, player)
    return {
        "version": m.version,
        "commands": domain.player_commands(m, player),
        "awaiting": domain.awaiting(m),
    }


@blp.route("/v1/matches/<match_id>/commands", methods=["POST"], parameters=_MATCH_ID)
@require_player
@idempotent
@blp.arguments(_CommandIn)
@blp.alt_response(200, schema=schemas.CommandOut, success=True)
def post_command(args: dict[str, Any], match_id: str) -> Any:
    """Mulligan, play, attack, end_turn or concede; ``expected_version`` optional."""
    player = _me()
    expected = args.pop("expected_version", None)
    outcome = _service().execute(
        _match_id(match_id),
        player,
        args,
        expected,
        transaction=request_transaction,
        in_outer_transaction=in_idempotent_request(),
        after_commit=_after_commit,
    )
    return {
        "version": outcome.after.version,
        "events": _events_out(list(outcome.recorded), player),
        **_next_move(outcome.after, player),
    }


@blp.route("/v1/practice", methods=["POST"])
@require_player
@idempotent
@blp.arguments(_PracticeIn, required=False)
@blp.response(201, schemas.CreatedOut)
def start_practice(args: dict[str, Any]) -> Any:
    """A match against the greedy bot, at once. Deck: the 20 card ids given, else your active deck as
    economy last published it (the starter deck before any); an illegal active deck is 422."""
    player = _me()
    bot = f"bot-{uuid.uuid4()}"
    players = [
        {"id": player, "deck": args.get("deck") or _service().practice_deck(player)},
        {"id": bot, "deck": list(STARTER_DECK)},
    ]
    outcome = _create_match("practice", players, admit=player, bot=bot)
    return {"match_id": outcome.after.match_id, "version": outcome.after.version, "bot": bot}


@blp.route("/v1/admin/matches", methods=["POST"])
@require_operator
@idempotent
@blp.arguments(_AdminMatchIn)
@blp.response(201, schemas.CreatedOut)
def admin_create_match(args: dict[str, Any]) -> Any:
    """Operators: a match from a full setup (decks, ``shuffle``, ``first``, ``arcana``, ``seed``), always
    in mode ``admin``, which pays and moves nothing."""
    setup = dict(args["setup"])
    players = setup.pop("players")
    seed = setup.pop("seed", None)
    outcome = _create_match(fairplay.ADMIN, players, options=setup, seed=seed)
    return {"match_id": outcome.after.match_id, "version": outcome.after.version, "bot": None}


def _create_match(
    mode: str, players: list[dict[str, Any]], admit: str | None = None, **options: Any
) -> Outcome:
    """Start a match in this request's transaction; its timers and bot are scheduled after the
    commit. An illegal setup is a 422 with the engine's code. ``admit``: the player whose
    practice limits are checked first, in the same transaction (409 or 429)."""
    svc = _service()
    with request_transaction() as conn:
        if admit is not None:
            svc.admit_practice(admit, conn)
        outcome = svc.create_match(mode, players, conn=conn, **options)
    _after_commit(lambda: svc.dispatch(outcome))
    return outcome


_CATALOG_BODY = json.dumps(
    {"cards": [c.to_dict() for c in CATALOG.values()], "arcana": [a.to_dict() for a in ARCANA.values()]},
    separators=(",", ":"),
).encode()
_CATALOG_TAG = hashlib.sha256(_CATALOG_BODY).hexdigest()[:32]
_CACHE_HEADERS = {
    "ETag": {"schema": {"type": "string"}, "description": "the catalog's version"},
    "Cache-Control": {"schema": {"type": "string"}},
}


@blp.route("/v1/catalog", methods=["GET"])
@blp.alt_response(200, schema=schemas.CatalogOut, success=True, headers=_CACHE_HEADERS)
@blp.alt_response(304, description="Not Modified (If-None-Match matched the ETag)", headers=_CACHE_HEADERS)
def catalog() -> Any:
    """Every card and arcana as the rules engine defines them (cacheable; ETag)."""
    headers = {"ETag": f'"{_CATALOG_TAG}"', "Cache-Control": "public, max-age=3600"}
    if request.if_none_match.contains(_CATALOG_TAG):
        return Response(status=304, headers=headers)
    return Response(_CATALOG_BODY, status=200, headers=headers, content_type="application/json")
