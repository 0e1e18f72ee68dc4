"""HTTP of the economy service. Each endpoint: validate, call one service method, one success code.

- ``GET  /v1/wallet`` → 200 coins, shards, dust, free packs, pity counter, next pack's commitment
- ``GET  /v1/wallet/history?limit=&before=`` → 200 the ledger, newest first, paged
- ``GET  /v1/collection`` → 200 owned copies per card, with the catalog's card
- ``POST /v1/packs`` ``{client_seed?}`` → 201 five cards, the revealed seed, the next commitment;
  409 ``insufficient_coins``
- ``POST /v1/crafts`` / ``POST /v1/disenchants`` ``{card_id}`` → 201; 422 ``unknown_card``; 409
  ``insufficient_dust``, ``craft_beyond_limit``, ``card_not_owned``
- ``GET|POST /v1/decks``, ``GET|PUT|DELETE /v1/decks/{id}``, ``POST /v1/decks/{id}/activate``;
  404 ``deck_not_found``; 409 ``deck_limit_reached``, ``active_deck``; 422 ``invalid_deck``,
  ``illegal_deck`` (details.problems names every problem); 429 ``too_many_requests`` (``Retry-After``)
  over 30 deck writes a minute per player
- the line's welcome set, collection and lines: ``line_api.py``
- ``POST /v1/admin/grants`` (operator token) → 201; 404 ``wallet_not_found``; 422
  ``grant_above_ceiling`` (``ARCANA_GRANT_MAX_COINS`` / ``_DUST`` / ``_PACKS``)
A player sees and changes only their own wallet, collection and decks. POSTs honour
``Idempotency-Key``. Refusals write nothing.
"""

from __future__ import annotations

import uuid
from typing import Any

from libs.kit import ErrorTable, Problem
from libs.kit.limits import TOO_MANY_REQUESTS, PlayerLimit, TooManyRequests, limited
from libs.kit.web import current_service
from libs.web import (
    Blueprint,
    current_player,
    idempotent,
    request_transaction,
    require_operator,
    require_player,
)
from libs.web.contract import uuid_path
from services.economy import schemas, store
from services.economy.domain import (
    AboveCeiling,
    ActiveDeckUndeletable,
    AlreadyCredited,
    AlreadyEntered,
    CardNotOwned,
    CraftBeyondLimit,
    DailyEntriesReached,
    DeckLimitReached,
    DeckNotFound,
    EconomyError,
    IllegalDeck,
    InsufficientCoins,
    InsufficientDust,
    InvalidAmount,
    InvalidDeck,
    InvalidEntry,
    InvalidLine,
    UnknownCard,
    WalletNotFound,
    WelcomeAlreadyClaimed,
)
from services.economy.domain.credits import PlayerCredit
from services.economy.domain.games import PACKS
from services.economy.domain.wallet import Credit, Wallet
from services.economy.events import CardCrafted, CardDisenchanted
from services.economy.service import Busy, EconomyService


def _problem(status: int, cls: type[EconomyError], *, rules: bool = False) -> Problem:
    """``cls``'s code and the exception's message and details; ``rules``: a refusal of input valid by
    the document (a deck's copy limits, what the player owns: see ``Problem.rules``)."""
    return Problem(
        status,
        lambda e: e.code,
        lambda e: e.message,
        details=lambda e: e.details,
        codes=(cls.code,),
        rules=rules,
    )


ERRORS = ErrorTable(
    {
        **{cls: _problem(404, cls) for cls in (WalletNotFound, DeckNotFound)},
        **{cls: _problem(422, cls) for cls in (UnknownCard, InvalidAmount, AboveCeiling)},
        **{
            cls: _problem(422, cls, rules=True)
            for cls in (InvalidDeck, IllegalDeck, InvalidLine, InvalidEntry)
        },
        **{
            cls: _problem(409, cls)
            for cls in (
                InsufficientCoins,
                InsufficientDust,
                CraftBeyondLimit,
                CardNotOwned,
                DeckLimitReached,
                ActiveDeckUndeletable,
                AlreadyCredited,
                WelcomeAlreadyClaimed,
                AlreadyEntered,
                DailyEntriesReached,
                Busy,
            )
        },
        EconomyError: _problem(409, EconomyError),
        TooManyRequests: TOO_MANY_REQUESTS,
    }
)

# Saving, renaming, deleting and activating decks (each a DeckSaved / ActiveDeckChanged that other
# services store): ARCANA_DECK_WRITES_PER_WINDOW, ARCANA_DECK_WRITES_WINDOW_SECONDS.
DECK_WRITES = PlayerLimit("deck_write", "DECK_WRITES", per_window=30, window_seconds=60)

_DECK_ID = uuid_path("deck_id", "A deck of yours (anything else: 404 `deck_not_found`).")

blp = Blueprint("economy", __name__, description="Wallet, collection, provably fair packs, crafting, decks.")

_History = schemas.HistoryQuery()
_PackIn = schemas.PackIn()
_CardIn = schemas.CardIn()
_DeckIn = schemas.DeckIn()
_GrantIn = schemas.GrantIn()


def _service() -> EconomyService:
    svc: EconomyService = current_service()
    return svc


def _me() -> str:
    return str(current_player())


def parse_deck_id(raw: str) -> str:
    try:
        return str(uuid.UUID(raw))
    except ValueError:
        raise DeckNotFound(f"no deck {raw}") from None


@blp.route("/v1/wallet", methods=["GET"])
@require_player
@blp.response(200, schemas.WalletOut)
def get_wallet() -> Any:
    """Your coins, dust, free packs held, pity counter and the next pack's commitment."""
    return _service().wallet(_me())


@blp.route("/v1/wallet/history", methods=["GET"])
@require_player
@blp.arguments(_History, location="query")
@blp.response(200, schemas.HistoryOut)
def get_history(query: dict[str, Any]) -> Any:
    """Every credit and spend, newest first: amount, balance after, reason and source; ``limit``
    events per page (one entry per currency an event moves), ``before`` from ``next_before``."""
    entries, next_before = _service().read(store.ledger, _me(), query["limit"], query.get("before"))
    return {"entries": entries, "next_before": next_before}


@blp.route("/v1/collection", methods=["GET"])
@require_player
@blp.response(200, schemas.CollectionOut)
def get_collection() -> Any:
    """The copies you own of each card, with what the catalog says of it."""
    owned = _service().read(store.collection, _me())
    return {"cards": [{"card_id": c, "copies": n, "card": PACKS.cards.card(c)} for c, n in owned.items()]}


@blp.route("/v1/packs", methods=["POST"])
@require_player
@idempotent
@blp.arguments(_PackIn, required=False)
@blp.response(201, schemas.PackOut)
def open_pack(args: dict[str, Any]) -> Any:
    """Open a pack: a held free pack first, else 100 coins. Reveals the seed, commits the next."""
    e = _service().open_pack(_me(), args["client_seed"], tx=request_transaction)
    return {
        **e.data(),
        "pity_counter": e.pity_after,
        "coins": e.coins_after,
        "dust": e.dust_after,
        "free_packs": e.free_packs_after,
    }


def _card_change(event: Any, after: Wallet, dust_change: int) -> dict[str, Any]:
    return {
        "card_id": event.card_id,
        "rarity": event.rarity,
        "dust_change": dust_change,
        "dust": event.dust_after,
        "copies": after.owned(event.card_id),
    }


@blp.route("/v1/crafts", methods=["POST"])
@require_player
@idempotent
@blp.arguments(_CardIn)
@blp.response(201, schemas.CardChangeOut)
def craft(args: dict[str, Any]) -> Any:
    """Craft one copy (20 / 80 / 200 / 600 / 1600 dust by rarity), up to the deck limit."""
    event, after = _service().craft(_me(), args["card_id"], tx=request_transaction)
    assert isinstance(event, CardCrafted)
    return _card_change(event, after, -event.dust_spent)


@blp.route("/v1/disenchants", methods=["POST"])
@require_player
@idempotent
@blp.arguments(_CardIn)
@blp.response(201, schemas.CardChangeOut)
def disenchant(args: dict[str, Any]) -> Any:
    """Turn one owned copy into its dust value (5 / 20 / 50 / 150 / 400)."""
    event, after = _service().disenchant(_me(), args["card_id"], tx=request_transaction)
    assert isinstance(event, CardDisenchanted)
    return _card_change(event, after, event.dust_gained)


@blp.route("/v1/decks", methods=["GET"])
@require_player
@blp.response(200, schemas.DecksOut)
def list_decks() -> Any:
    """Your decks (at most 5), each with its legality now."""
    return {"decks": _service().decks(_me())}


@blp.route("/v1/decks", methods=["POST"])
@require_player
@limited(DECK_WRITES)
@idempotent
@blp.arguments(_DeckIn)
@blp.response(201, schemas.DeckOut)
def create_deck(args: dict[str, Any]) -> Any:
    """Save a new deck (it may be incomplete; at most 20 cards, 2 copies, 1 of a legendary)."""
    return _service().save_deck(_me(), None, args["name"], args["cards"], tx=request_transaction)


@blp.route("/v1/decks/<deck_id>", parameters=_DECK_ID, methods=["GET"])
@require_player
@blp.response(200, schemas.DeckOut)
def get_deck(deck_id: str) -> Any:
    """One of your decks."""
    return _service().deck(_me(), parse_deck_id(deck_id))


@blp.route("/v1/decks/<deck_id>", parameters=_DECK_ID, methods=["PUT"])
@require_player
@limited(DECK_WRITES)
@idempotent
@blp.arguments(_DeckIn)
@blp.response(200, schemas.DeckOut)
def replace_deck(args: dict[str, Any], deck_id: str) -> Any:
    """Replace a deck's name and cards (the active deck is republished with its legality)."""
    return _service().save_deck(
        _me(), parse_deck_id(deck_id), args["name"], args["cards"], tx=request_transaction
    )


@blp.route("/v1/decks/<deck_id>", parameters=_DECK_ID, methods=["DELETE"])
@require_player
@limited(DECK_WRITES)
@blp.response(204)
def delete_deck(deck_id: str) -> Any:
    """Delete a deck (not the active one)."""
    _service().delete_deck(_me(), parse_deck_id(deck_id), tx=request_transaction)
    return None


@blp.route("/v1/decks/<deck_id>/activate", parameters=_DECK_ID, methods=["POST"])
@require_player
@limited(DECK_WRITES)
@idempotent
@blp.response(200, schemas.DeckOut)
def activate_deck(deck_id: str) -> Any:
    """Make a legal deck your active one (422 ``illegal_deck`` names every problem)."""
    return _service().activate_deck(_me(), parse_deck_id(deck_id), tx=request_transaction)


@blp.route("/v1/admin/grants", methods=["POST"])
@require_operator
@idempotent
@blp.arguments(_GrantIn)
@blp.response(201, schemas.GrantOut)
def grant(args: dict[str, Any]) -> Any:
    """Operators: credit a player coins, dust or free packs, with a required reason. A ``grant_id``
    is paid once (409 ``already_credited`` after)."""
    player = str(args["player_id"])
    source = f"grant:{args.get('grant_id') or uuid.uuid4()}"
    paid = PlayerCredit(
        player,
        Credit(source, "grant", args["coins"], args["dust"], args["free_packs"], note=args["reason"]),
    )
    recorded = _service().grant(paid, tx=request_transaction)
    d = recorded.data
    return {
        "source": source,
        "coins": d["coins_after"],
        "dust": d["dust_after"],
        "free_packs": d["free_packs_after"],
    }
