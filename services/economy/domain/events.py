"""The economy's events: immutable past-tense facts, stored with their class name as type.

Wallet stream ``wallet-<player>``: ``WalletOpened``, ``WalletCredited``, ``PackOpened``,
``CardCrafted``, ``CardDisenchanted``. Decks stream ``decks-<player>``: ``DeckSaved``,
``DeckDeleted``, ``DeckActivated``, ``ActiveDeckChanged`` (the active deck with its legality, the
integration event matchmaking and match keep). Every random outcome (a pack's cards, the seed
revealed) is in the event: replay never draws again.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar


@dataclass(frozen=True)
class Event:
    """Base of the events: ``type`` is the class name, ``data()`` the JSON-able fields."""

    TYPE: ClassVar[str] = "Event"

    def data(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class WalletOpened(Event):
    """A new account's wallet; ``commitment`` is the hash of the first pack's server seed."""

    TYPE: ClassVar[str] = "WalletOpened"
    player_id: str
    commitment: str
    cards: dict[str, int]  # the starter collection


@dataclass(frozen=True)
class WalletCredited(Event):
    """Coins, dust and/or free packs paid once for ``source`` (unique per player)."""

    TYPE: ClassVar[str] = "WalletCredited"
    source: str
    reason: str  # starter | daily_login | match | quest | streak | grant
    coins: int
    dust: int
    free_packs: int
    coins_after: int
    dust_after: int
    free_packs_after: int
    note: str | None = None


@dataclass(frozen=True)
class PackOpened(Event):
    """One opened pack: what paid for it, both seeds, the cards (``dust`` > 0: a copy beyond the deck
    limit, turned into that much dust) and the commitment of the next pack's seed."""

    TYPE: ClassVar[str] = "PackOpened"
    pack_number: int
    paid_with: str  # coins | free_pack
    coins_spent: int
    server_seed: str
    commitment: str
    client_seed: str
    pity_before: int
    pity_after: int
    cards: list[dict[str, Any]]  # {card_id, rarity, dust}
    next_commitment: str
    coins_after: int
    dust_after: int
    free_packs_after: int


@dataclass(frozen=True)
class CardCrafted(Event):
    TYPE: ClassVar[str] = "CardCrafted"
    card_id: str
    rarity: str
    dust_spent: int
    dust_after: int


@dataclass(frozen=True)
class CardDisenchanted(Event):
    TYPE: ClassVar[str] = "CardDisenchanted"
    card_id: str
    rarity: str
    dust_gained: int
    dust_after: int


@dataclass(frozen=True)
class DeckSaved(Event):
    """A deck created (``created``) or replaced by its new name and cards."""

    TYPE: ClassVar[str] = "DeckSaved"
    deck_id: str
    name: str
    cards: list[str]
    created: bool


@dataclass(frozen=True)
class DeckDeleted(Event):
    TYPE: ClassVar[str] = "DeckDeleted"
    deck_id: str


@dataclass(frozen=True)
class DeckActivated(Event):
    TYPE: ClassVar[str] = "DeckActivated"
    deck_id: str


@dataclass(frozen=True)
class ActiveDeckChanged(Event):
    """The player's active deck and its legality now (published for matchmaking and match)."""

    TYPE: ClassVar[str] = "ActiveDeckChanged"
    player_id: str
    deck_id: str
    name: str
    cards: list[str]
    legal: bool
    problems: list[str]


EVENT_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
        WalletOpened,
        WalletCredited,
        PackOpened,
        CardCrafted,
        CardDisenchanted,
        DeckSaved,
        DeckDeleted,
        DeckActivated,
        ActiveDeckChanged,
    )
}


def event_from(type_: str, data: dict[str, Any]) -> Event:
    """The event of a stored ``type`` and ``data``; raises KeyError for a type not of this service."""
    cls = EVENT_TYPES[type_]
    names = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in data.items() if k in names})
