"""What a service's stored events become on the bus: the ``Publication`` its outbox relay follows
(declared as ``ServiceDef.publication``, ``libs.kit.definition``). Standard library only, so a
service's definition can name it without loading Kafka's client."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from libs.eventstore import EventStore, RecordedEvent

# (stored event, the service's event store) -> each (topic, event) to publish for it, in order
Route = Callable[["RecordedEvent", "EventStore"], Sequence[tuple[str, "RecordedEvent"]]]


@dataclass(frozen=True)
class Publication:
    """What a service's stored events become on the bus; its outbox relay follows it.

    ``topics``: every topic it publishes to (the relay creates a missing one); the first is the
    service's ``arcana.<name>.events``. ``route(event, store)``: what to publish for one stored
    event, as (topic, event) pairs in order; nothing for an event that stays in the store. It may
    read the store (e.g. a whole stream once it has ended). Without one, a service publishes
    every event as stored on ``arcana.<name>.events``."""

    topics: tuple[str, ...]
    route: Route


def without(event: RecordedEvent, fields: frozenset[str], version: int) -> RecordedEvent:
    """``event`` as a topic carries it without ``fields`` (e.g. a deck's cards), as schema ``version``
    (the form declared for that topic): the stored event keeps them."""
    data = {k: v for k, v in event.data.items() if k not in fields}
    return dataclasses.replace(event, data=data, schema_version=version)
