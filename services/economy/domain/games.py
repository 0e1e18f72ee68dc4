"""The games whose cards the economy keeps, found by their offers (``libs.games.offer.Collection``),
never by name: the game whose cards come in packs, with a starter collection given with the wallet
(``PACKS``: Arcana's), and the game whose cards are a welcome set claimed once (``WELCOME``: the
line's). The economy keeps one of each (its streams, tables and ``/v1/<game>/...`` routes); a second
game of either kind would need its own."""

from __future__ import annotations

from collections.abc import Callable

from libs.games import registry
from libs.games.offer import Collection


def _only(kind: str, has: Callable[[Collection], bool]) -> tuple[str, Collection]:
    """The one hosted game whose collection ``has`` it; LookupError for none or several."""
    found = [
        (name, offer.collection)
        for name, offer in registry.offers().items()
        if offer.collection is not None and has(offer.collection)
    ]
    if len(found) != 1:
        raise LookupError(f"the economy keeps one game with {kind}, not {[n for n, _ in found]}")
    return found[0]


PACKS_GAME, PACKS = _only("a starter collection and packs", lambda c: bool(c.starter))
WELCOME_GAME, WELCOME = _only("a welcome set", lambda c: bool(c.welcome))
STARTER_DECK: tuple[str, ...] = tuple(registry.get(PACKS_GAME).starter_deck)
