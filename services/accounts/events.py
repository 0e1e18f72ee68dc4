"""What accounts publishes on ``arcana.accounts.events`` (declared once; see docs/events.md)."""

from __future__ import annotations

from libs.contracts.accounts import (
    AccountDeleted,
    AccountRestored,
    AccountSuspended,
    AllSessionsRevoked,
    DisplayNameChanged,
    PlayerLoggedIn,
    PlayerRegistered,
    SessionRevoked,
)
from libs.contracts.audit import OperatorActed
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
        AccountSuspended,
        AccountRestored,
        OperatorActed,
    ),
    "Player accounts and their sessions. Stream `player-<id>` per player; operators' actions on "
    "accounts in the stream `audit`.",
)
