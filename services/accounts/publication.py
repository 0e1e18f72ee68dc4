"""What accounts' stored events become on ``arcana.accounts.events`` (``SERVICE.publication``; the
outbox relay follows it): each event in its current shape, never as an older one was stored.

A ``PlayerRegistered`` or ``PlayerLoggedIn`` stored in version 1 holds the username; published as
stored, it would put the log-in name on a topic, which can never be erased (docs/security.md,
account deletion). It is published upcast (``upcasting.py``: the username dropped), and so is
every event the relay sends again from the start (a new broker, a recreated topic).
"""

from __future__ import annotations

from collections.abc import Sequence

from libs.eventstore import EventStore, RecordedEvent
from libs.kit import Publication
from services.accounts.events import TOPIC
from services.accounts.upcasting import UPCASTERS


def route(event: RecordedEvent, store: EventStore) -> Sequence[tuple[str, RecordedEvent]]:
    return [(TOPIC, UPCASTERS.upcast(event))]


PUBLICATION = Publication(topics=(TOPIC,), route=route)
