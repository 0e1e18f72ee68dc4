"""Marshmallow schemas of the economy API (in: strict, unknown fields are 422; out: documentation)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import validate as v

from libs.web import FullMatch, QueryInteger, StrictInteger, StrictSchema
from services.economy.ceilings import GRANT_CEILING
from services.economy.domain.games import PACKS, WELCOME
from services.economy.domain.values import DECK_NAME_MAX, DECK_SIZE

_CARD_IDS = sorted(PACKS.cards.ids())
LINE_SIZE = WELCOME.deck_size


def card_id_field(**kwargs: object) -> ma.fields.String:
    """A card id of the catalog (documented as the enum; the server refuses others with 422
    ``unknown_card``, or ``invalid_deck`` in a deck)."""
    return ma.fields.String(
        validate=v.Length(min=1, max=64),
        metadata={"enum": _CARD_IDS},
        **kwargs,  # type: ignore[arg-type]
    )


class HistoryQuery(StrictSchema):
    limit = QueryInteger(load_default=50, validate=v.Range(min=1, max=500))
    before = QueryInteger(validate=v.Range(min=1, max=2**62))


class PackIn(StrictSchema):
    client_seed = ma.fields.String(load_default="", validate=FullMatch(r"[A-Za-z0-9_.-]{0,64}"))


class CardIn(StrictSchema):
    card_id = card_id_field(required=True)


class DeckIn(StrictSchema):
    name = ma.fields.String(required=True, validate=v.Length(min=1, max=DECK_NAME_MAX))
    cards = ma.fields.List(
        card_id_field(),
        required=True,
        validate=v.Length(max=100),
        metadata={
            "maxItems": DECK_SIZE,
            "description": f"at most {DECK_SIZE} card ids of the catalog, at most 2 copies of a card (1 of "
            "a legendary); refused with 422 `invalid_deck` otherwise",
        },
    )


class LineIn(StrictSchema):
    name = ma.fields.String(required=True, validate=v.Length(min=1, max=DECK_NAME_MAX))
    cards = ma.fields.List(
        ma.fields.String(validate=v.Length(min=1, max=64), metadata={"enum": sorted(WELCOME.cards.ids())}),
        required=True,
        validate=v.Length(max=100),
        metadata={
            "minItems": LINE_SIZE,
            "maxItems": LINE_SIZE,
            "uniqueItems": True,
            "description": f"{LINE_SIZE} different line card ids you own, in row order, the front (left) "
            "first; refused with 422 `invalid_line` (every problem in `details.problems`) otherwise",
        },
    )


class GrantIn(StrictSchema):
    JSON_SCHEMA = {  # the domain refuses a credit of nothing (422 `invalid_amount`)
        "anyOf": [
            {"required": [name], "properties": {name: {"minimum": 1}}}
            for name in ("coins", "dust", "free_packs")
        ]
    }

    player_id = ma.fields.UUID(required=True)
    # at most the configured ceiling (services/economy/ceilings.py; the service checks it again)
    coins = StrictInteger(load_default=0, validate=v.Range(min=0, max=GRANT_CEILING.coins))
    dust = StrictInteger(load_default=0, validate=v.Range(min=0, max=GRANT_CEILING.dust))
    free_packs = StrictInteger(load_default=0, validate=v.Range(min=0, max=GRANT_CEILING.free_packs))
    reason = ma.fields.String(required=True, validate=v.Length(min=1, max=200))
    grant_id = ma.fields.String(
        validate=FullMatch(r"[A-Za-z0-9_.:-]{1,100}"),
        metadata={"description": "the support ticket or any id: a grant with the same id is paid once"},
    )


class NextPackOut(ma.Schema):
    pack_number = ma.fields.Integer(required=True)
    commitment = ma.fields.String(allow_none=True, metadata={"description": "sha256 of the next server seed"})


class WalletOut(ma.Schema):
    coins = ma.fields.Integer(required=True)
    shards = ma.fields.Integer(required=True, metadata={"description": "the line's currency"})
    dust = ma.fields.Integer(required=True)
    free_packs = ma.fields.Integer(required=True)
    pity_counter = ma.fields.Integer(
        required=True, metadata={"description": "packs since the last legendary"}
    )
    packs_opened = ma.fields.Integer(required=True)
    next_pack = ma.fields.Nested(NextPackOut, required=True)
    paying_matches_left = ma.fields.Integer(
        required=True,
        metadata={
            "description": "matches that may still pay coins (or the line's shards) today (UTC): 10 a "
            "day across every game, then matches pay XP, quests and rating but no coins (daily coin "
            "limit reached)"
        },
    )


class LedgerEntryOut(ma.Schema):
    position = ma.fields.Integer(required=True)
    currency = ma.fields.String(required=True)
    amount = ma.fields.Integer(required=True)
    balance_after = ma.fields.Integer(required=True)
    reason = ma.fields.String(required=True)
    source = ma.fields.String(required=True)
    occurred_at = ma.fields.AwareDateTime(required=True)


class HistoryOut(ma.Schema):
    entries = ma.fields.List(ma.fields.Nested(LedgerEntryOut), required=True)
    next_before = ma.fields.Integer(allow_none=True, metadata={"description": "`before` of the next page"})


class OwnedCardOut(ma.Schema):
    card_id = ma.fields.String(required=True)
    copies = ma.fields.Integer(required=True)
    card = ma.fields.Dict(required=True, metadata={"description": "the catalog's card"})


class CollectionOut(ma.Schema):
    cards = ma.fields.List(ma.fields.Nested(OwnedCardOut), required=True)


class PackCardOut(ma.Schema):
    card_id = ma.fields.String(required=True)
    rarity = ma.fields.String(required=True)
    dust = ma.fields.Integer(required=True, metadata={"description": "> 0: an extra copy, turned into dust"})


class PackOut(ma.Schema):
    pack_number = ma.fields.Integer(required=True)
    paid_with = ma.fields.String(required=True)
    cards = ma.fields.List(ma.fields.Nested(PackCardOut), required=True)
    server_seed = ma.fields.String(required=True)
    commitment = ma.fields.String(required=True)
    client_seed = ma.fields.String(required=True)
    pity_before = ma.fields.Integer(required=True)
    pity_counter = ma.fields.Integer(required=True)
    next_commitment = ma.fields.String(required=True)
    coins = ma.fields.Integer(required=True)
    dust = ma.fields.Integer(required=True)
    free_packs = ma.fields.Integer(required=True)


class CardChangeOut(ma.Schema):
    card_id = ma.fields.String(required=True)
    rarity = ma.fields.String(required=True)
    dust_change = ma.fields.Integer(required=True)
    dust = ma.fields.Integer(required=True)
    copies = ma.fields.Integer(required=True)


class DeckOut(ma.Schema):
    deck_id = ma.fields.String(required=True)
    name = ma.fields.String(required=True)
    cards = ma.fields.List(ma.fields.String(), required=True)
    active = ma.fields.Boolean(required=True)
    legal = ma.fields.Boolean()
    problems = ma.fields.List(ma.fields.String())
    created_at = ma.fields.AwareDateTime(required=True)
    updated_at = ma.fields.AwareDateTime(required=True)


class DecksOut(ma.Schema):
    decks = ma.fields.List(ma.fields.Nested(DeckOut), required=True)


class GrantOut(ma.Schema):
    source = ma.fields.String(required=True)
    coins = ma.fields.Integer(required=True)
    dust = ma.fields.Integer(required=True)
    free_packs = ma.fields.Integer(required=True)


class LineCollectionOut(ma.Schema):
    cards = ma.fields.List(ma.fields.Nested(OwnedCardOut), required=True)
    welcome_claimed = ma.fields.Boolean(required=True)


class LinkOut(ma.Schema):
    id = ma.fields.String(
        required=True, metadata={"description": "the link (libs/games/line: anchor, classic, ...)"}
    )
    tier = ma.fields.Integer(required=True, metadata={"description": "the tier reached (cards matching)"})
    slots = ma.fields.List(ma.fields.Integer(), required=True, metadata={"description": "the matching slots"})
    bonus = ma.fields.List(
        ma.fields.List(ma.fields.Integer()),
        required=True,
        metadata={"description": "per slot, left first: [+ATK, +ARM, +HP]"},
    )


class FighterOut(ma.Schema):
    card_id = ma.fields.String(required=True)
    roles = ma.fields.List(ma.fields.String(), required=True)
    atk = ma.fields.Integer(required=True)
    arm = ma.fields.Integer(required=True)
    hp = ma.fields.Integer(required=True)


class LineDeckOut(DeckOut):
    legal = ma.fields.Boolean(required=True)
    problems = ma.fields.List(ma.fields.String(), required=True)
    links = ma.fields.List(ma.fields.Nested(LinkOut), required=True, metadata={"description": "links lit"})
    stats = ma.fields.List(
        ma.fields.Nested(FighterOut),
        required=True,
        metadata={"description": "each card as it enters the fight, every link baked in, left first"},
    )


class LineAutofillOut(ma.Schema):
    cards = ma.fields.List(
        ma.fields.String(),
        required=True,
        metadata={"description": "the proposed five, the front (left) first"},
    )
    links = ma.fields.List(ma.fields.Nested(LinkOut), required=True, metadata={"description": "links lit"})
    stats = ma.fields.List(
        ma.fields.Nested(FighterOut),
        required=True,
        metadata={"description": "each card as it would enter the fight, every link baked in, left first"},
    )


class LineDecksOut(ma.Schema):
    decks = ma.fields.List(ma.fields.Nested(LineDeckOut), required=True)


class TournamentEntryIn(StrictSchema):
    cards = ma.fields.List(
        ma.fields.String(validate=v.Length(min=1, max=64)),
        required=True,
        validate=v.Length(max=100),
        metadata={
            "description": "the entry: different cards of the game you own (the line: ten); refused "
            "with 422 `invalid_entry` (every problem in `details.problems`) otherwise"
        },
    )


class TournamentEntryOut(ma.Schema):
    entry_id = ma.fields.String(required=True, metadata={"description": "the entry (UUID)"})
    game = ma.fields.String(required=True)
    cards = ma.fields.List(ma.fields.String(), required=True, metadata={"description": "the entry's cards"})
    entered_at = ma.fields.String(required=True, metadata={"description": "ISO 8601, UTC"})
