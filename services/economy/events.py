"""What economy publishes on ``arcana.economy.events`` (declared once in ``domain/events.py``;
see docs/events.md)."""

from __future__ import annotations

from libs.kit.events import EventCatalog
from services.economy.domain.events import EVENT_TYPES

TOPIC = "arcana.economy.events"

CATALOG = EventCatalog(
    "economy",
    TOPIC,
    tuple(EVENT_TYPES.values()),
    "Wallets, collections, packs and decks. Streams `wallet-<player>` and `decks-<player>`.",
)
