"""Prices and limits of the economy (docs/rules.md, "Economy"), and the catalog of the game whose
cards come in packs (``games.PACKS``: Arcana's, by its offer) grouped by rarity."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from .games import PACKS, STARTER_DECK

RARITIES: Final = ("common", "uncommon", "rare", "epic", "legendary")
RARE_OR_BETTER: Final = ("rare", "epic", "legendary")
ODDS_PERCENT: Final[Mapping[str, int]] = {"common": 50, "uncommon": 28, "rare": 14, "epic": 6, "legendary": 2}
DUST_VALUE: Final[Mapping[str, int]] = {
    "common": 5,
    "uncommon": 20,
    "rare": 50,
    "epic": 150,
    "legendary": 400,
}
CRAFT_COST: Final[Mapping[str, int]] = {
    "common": 20,
    "uncommon": 80,
    "rare": 200,
    "epic": 600,
    "legendary": 1600,
}
PACK_SIZE: Final = 5
PACK_PRICE: Final = 100
PITY_PACKS: Final = 20  # a legendary at the latest in every 20th pack
STARTING_COINS: Final = 400
DAILY_LOGIN_COINS: Final = 50
MATCH_WIN_COINS: Final = 60
MATCH_LOSS_COINS: Final = 20  # also what a draw pays each player
MAX_DECKS: Final = PACKS.max_decks  # 5
DECK_SIZE: Final = PACKS.deck_size  # 20
DECK_NAME_MAX: Final = 40
STARTER_DECK_NAME: Final = "Starter deck"

CARDS_BY_RARITY: Final[Mapping[str, tuple[str, ...]]] = {
    rarity: tuple(sorted(cid for cid in PACKS.cards.ids() if PACKS.cards.rarity(cid) == rarity))
    for rarity in RARITIES
}
"""For each rarity, its catalog card ids in ascending order (the order pack opening indexes)."""

STARTER_CARDS: Final[Mapping[str, int]] = dict(PACKS.starter)
STARTER_DECK_CARDS: Final[tuple[str, ...]] = tuple(STARTER_DECK)


def rarity_of(card_id: str) -> str | None:
    """The card's rarity, or None for an id not in the catalog."""
    return PACKS.cards.rarity(card_id)


def copy_limit(rarity: str) -> int:
    """How many copies of a card of ``rarity`` a deck (and so a collection) may hold."""
    return 1 if rarity == "legendary" else 2
