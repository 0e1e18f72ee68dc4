"""What accounts publishes on ``arcana.accounts.events`` (declared once; see docs/events.md)."""

from __future__ import annotations

from dataclasses import dataclass, field

from libs.kit.events import EventCatalog, IntegrationEvent, integration_event

TOPIC = "arcana.accounts.events"


@integration_event("PlayerRegistered", version=1)
@dataclass(frozen=True)
class PlayerRegistered(IntegrationEvent):
    """A player account exists. Never carries the password or its hash."""

    player_id: str = field(metadata={"doc": "the player's id (UUID); their stream is `player-<id>`"})
    username: str = field(metadata={"doc": "lower case, 3-24 characters of `[a-z0-9_]`, unique"})


CATALOG = EventCatalog(
    "accounts",
    TOPIC,
    (PlayerRegistered,),
    "Player accounts. Stream `player-<id>` per player.",
)
