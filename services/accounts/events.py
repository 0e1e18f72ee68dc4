"""What accounts publishes on ``arcana.accounts.events`` (declared once; see docs/events.md)."""

from __future__ import annotations

from libs.contracts.accounts import (
    AccountDeleted,
    AllSessionsRevoked,
    DisplayNameChanged,
    PlayerLoggedIn,
    PlayerRegistered,
    SessionRevoked,
)
from libs.kit.events import EventCatalog

TOPIC = "arcana.accounts.events"

CATALOG = EventCatalog(
    "accounts",
    TOPIC,
    (
        PlayerRegistered,
        DisplayNameChanged,
        PlayerLoggedIn,
        SessionRevoked,
        AllSessionsRevoked,
        AccountDeleted,
    ),
    "Player accounts and their sessions. Stream `player-<id>` per player.",
)
