"""The economy domain, pure (standard library and ``libs.rules`` only): commands, events,
decisions and evolution of wallets and decks, the fair pack function and its exact odds."""

from services.economy.events import EVENT_TYPES, Event, event_from

from . import bounds, credits, decks, odds, packs, values, wallet
from .errors import (
    AboveCeiling,
    ActiveDeckUndeletable,
    AlreadyCredited,
    AlreadyOpened,
    CardNotOwned,
    CraftBeyondLimit,
    DeckLimitReached,
    DeckNotFound,
    EconomyError,
    IllegalDeck,
    InsufficientCoins,
    InsufficientDust,
    InvalidAmount,
    InvalidDeck,
    UnknownCard,
    WalletNotFound,
)

__all__ = [
    "EVENT_TYPES",
    "AboveCeiling",
    "ActiveDeckUndeletable",
    "AlreadyCredited",
    "AlreadyOpened",
    "CardNotOwned",
    "CraftBeyondLimit",
    "DeckLimitReached",
    "DeckNotFound",
    "EconomyError",
    "Event",
    "IllegalDeck",
    "InsufficientCoins",
    "InsufficientDust",
    "InvalidAmount",
    "InvalidDeck",
    "UnknownCard",
    "WalletNotFound",
    "bounds",
    "credits",
    "decks",
    "event_from",
    "odds",
    "packs",
    "values",
    "wallet",
]
