"""What ratings publishes on ``arcana.ratings.events`` (declared once; see docs/events.md)."""

from __future__ import annotations

from libs.contracts.ratings import RatingChanged
from libs.kit.events import EventCatalog

TOPIC = "arcana.ratings.events"


CATALOG = EventCatalog(
    "ratings",
    TOPIC,
    (RatingChanged,),
    "Ranked ratings (Elo, K 40 for 30 games then 24, start 900). Stream `rating-<player>` per player.",
)
