"""What Arcana offers the platform (``libs.games.offer``): ranked and casual queues of two with the
starter deck until the player builds one, the Elo ladder (streams ``rating-<player>``), 60 coins a win
and 20 a loss or draw, pass XP and every quest, its collection (a starter collection with the wallet,
the rest in packs; decks of 20, at most 5 saved) and the ascendant arcana of each day."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from libs.games.offer import (
    CASUAL,
    ELO,
    RANKED,
    STARTER_DECK,
    Collection,
    Daily,
    Ladder,
    Offer,
    Queue,
    Reward,
    Rewards,
)

from .arcana import ARCANA, daily_arcana
from .cards import CATALOG, STARTER_COLLECTION, deck_problems
from .constants import DECK_SIZE

WIN_COINS, LOSS_COINS = 60, 20  # a draw pays each player the loss's
MAX_DECKS = 5


class ArcanaCards:
    """Arcana's cards as the economy needs them."""

    def ids(self) -> Sequence[str]:
        return sorted(CATALOG)

    def card(self, card_id: str) -> dict[str, Any]:
        return CATALOG[card_id].to_dict()

    def rarity(self, card_id: str) -> str | None:
        card = CATALOG.get(card_id)
        return card.rarity if card else None

    def deck_problems(self, cards: Sequence[str], owned: Mapping[str, int]) -> list[str]:
        return deck_problems(cards, owned)

    def deck_preview(self, cards: Sequence[str]) -> dict[str, Any]:
        return {}


def _today(day: str) -> dict[str, Any]:
    return ARCANA[daily_arcana(day)].to_dict()


OFFER = Offer(
    queue=Queue((RANKED, CASUAL), (2,), deck=STARTER_DECK),
    ladder=Ladder(ELO, "rating"),
    rewards=Rewards.every_mode(Reward("coins", WIN_COINS), Reward("coins", LOSS_COINS)),
    collection=Collection(ArcanaCards(), DECK_SIZE, MAX_DECKS, "coins", starter=dict(STARTER_COLLECTION)),
    daily=Daily("arcana", _today, "ascendant arcana"),
)
