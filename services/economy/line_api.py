"""HTTP of the line's collection and lines (the economy's side of the second game, ``lines.py``), under
``/v1/<game>/``: the game whose offer's collection is a welcome set (the line).

- ``POST /v1/line/welcome`` → 201 the collection with the welcome set; 409 ``welcome_already_claimed``
- ``GET  /v1/line/collection`` → 200 the line cards owned, with the catalog's card
- ``POST /v1/line/decks/autofill`` → 200 a proposed five (most links, then stats), nothing saved;
  422 ``invalid_line`` for a collection of fewer than five different cards
- ``GET|POST /v1/line/decks``, ``PUT|DELETE /v1/line/decks/{id}``, ``POST /v1/line/decks/{id}/activate``;
  422 ``invalid_line`` (details.problems names every problem), 409 ``deck_limit_reached``,
  ``active_deck``; 404 ``deck_not_found``; 429 over the deck-write limit
- ``POST /v1/line/tournament/entries`` → 201 the entry (ten different line cards you own); the match
  service seats it in a bracket (``GET /v1/tournaments``); 422 ``invalid_entry`` (details.problems),
  409 ``already_entered`` (details.entry_id: one open entry, until its place is paid),
  409 ``daily_entries_reached`` (details.limit: 3 entries a UTC day)
A player sees and changes only their own collection and lines. POSTs honour ``Idempotency-Key``.
"""

from __future__ import annotations

from typing import Any

from flask.blueprints import BlueprintSetupState
from werkzeug.routing import BaseConverter

from libs.kit.limits import limited
from libs.kit.web import current_service
from libs.web import Blueprint, current_player, idempotent, request_transaction, require_player
from libs.web.contract import uuid_path
from services.economy import schemas
from services.economy.api import DECK_WRITES, parse_deck_id
from services.economy.domain.games import WELCOME_GAME
from services.economy.lines import Lines
from services.economy.service import EconomyService

_DECK_ID = uuid_path("deck_id", "A line of yours (anything else: 404 `deck_not_found`).")

blp = Blueprint("economy_line", __name__, description="The line: welcome set, collection, saved lines.")


class _LineDeckId(BaseConverter):
    """A line's id in a path: anything but ``autofill``, so that ``/decks/autofill`` matches only
    its own route (and ``OPTIONS`` there lists only ``POST``); a malformed id still reaches the view
    and answers 404 ``deck_not_found``."""

    regex = r"(?!autofill/?$)[^/]+"


@blp.record_once
def _register_converter(state: BlueprintSetupState) -> None:
    state.app.url_map.converters["line_deck"] = _LineDeckId


_LineIn = schemas.LineIn()
_EntryIn = schemas.TournamentEntryIn()


def _lines() -> Lines:
    svc: EconomyService = current_service()
    return svc.line


def _me() -> str:
    return str(current_player())


@blp.route(f"/v1/{WELCOME_GAME}/welcome", methods=["POST"])
@require_player
@idempotent
@blp.response(201, schemas.LineCollectionOut)
def claim_welcome() -> Any:
    """Claim the welcome set, once: 3 creeps, 7 uncommon heroes and a support hero (enough for a
    first line)."""
    return _lines().claim_welcome(_me(), tx=request_transaction)


@blp.route(f"/v1/{WELCOME_GAME}/collection", methods=["GET"])
@require_player
@blp.response(200, schemas.LineCollectionOut)
def get_collection() -> Any:
    """The line cards you own, with what the catalog says of each."""
    return _lines().collection(_me())


@blp.route(f"/v1/{WELCOME_GAME}/decks", methods=["GET"])
@require_player
@blp.response(200, schemas.LineDecksOut)
def list_lines() -> Any:
    """Your lines (at most 5), each with its legality, the links it lights and the stats it fights with."""
    return {"decks": _lines().decks(_me())}


@blp.route(f"/v1/{WELCOME_GAME}/decks", methods=["POST"])
@require_player
@limited(DECK_WRITES)
@idempotent
@blp.arguments(_LineIn)
@blp.response(201, schemas.LineDeckOut)
def create_line(args: dict[str, Any]) -> Any:
    """Save a new line: five different line cards you own, the front (left) first."""
    return _lines().save(_me(), None, args["name"], args["cards"], tx=request_transaction)


@blp.route(f"/v1/{WELCOME_GAME}/decks/autofill", methods=["POST"])
@require_player
@blp.response(200, schemas.LineAutofillOut)
def autofill_line() -> Any:
    """Propose a five from your collection: the most links lit, then the highest stats (the links baked
    in), the same five for the same collection; nothing is saved (swap by hand, then save it)."""
    return _lines().autofill(_me())


@blp.route(f"/v1/{WELCOME_GAME}/decks/<line_deck:deck_id>", parameters=_DECK_ID, methods=["PUT"])
@require_player
@limited(DECK_WRITES)
@idempotent
@blp.arguments(_LineIn)
@blp.response(200, schemas.LineDeckOut)
def replace_line(args: dict[str, Any], deck_id: str) -> Any:
    """Replace a line's name and cards (the active line is published again)."""
    return _lines().save(_me(), parse_deck_id(deck_id), args["name"], args["cards"], tx=request_transaction)


@blp.route(f"/v1/{WELCOME_GAME}/decks/<line_deck:deck_id>", parameters=_DECK_ID, methods=["DELETE"])
@require_player
@limited(DECK_WRITES)
@blp.response(204)
def delete_line(deck_id: str) -> Any:
    """Delete a line (not the active one)."""
    _lines().delete(_me(), parse_deck_id(deck_id), tx=request_transaction)
    return None


@blp.route(f"/v1/{WELCOME_GAME}/decks/<line_deck:deck_id>/activate", parameters=_DECK_ID, methods=["POST"])
@require_player
@limited(DECK_WRITES)
@idempotent
@blp.response(200, schemas.LineDeckOut)
def activate_line(deck_id: str) -> Any:
    """Make a line your active one: the one you queue and practise with."""
    return _lines().activate(_me(), parse_deck_id(deck_id), tx=request_transaction)


@blp.route(f"/v1/{WELCOME_GAME}/tournament/entries", methods=["POST"])
@require_player
@limited(DECK_WRITES)
@idempotent
@blp.arguments(_EntryIn)
@blp.response(201, schemas.TournamentEntryOut)
def enter_tournament(args: dict[str, Any]) -> Any:
    """Enter the tournament with ten different line cards you own (docs/line.md, "Tournament"): the
    next bracket of 8 seats you (bots fill its empty seats 60 s after its first entry); each round you
    choose five of the ten (`PUT /v1/tournaments/{id}/lineup`)."""
    return _lines().enter_tournament(_me(), args["cards"], tx=request_transaction)
