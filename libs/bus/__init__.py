"""The Kafka bus: outbox relay, idempotent consumers, local projections, replay tools.

- ``relay.OutboxRelay`` publishes a service's events to ``arcana.<service>.events``
  (``publication.Publication``: what a service declares it publishes where);
- ``consumer.ConsumerRunner`` applies other services' events once each (inbox);
- ``projector.Projector`` keeps a read model of the service's own events, ``rebuild()`` redoes it;
- ``deadletters`` keeps the events a consumer gave up on, ``purge`` the inbox purge policy;
- ``python -m libs.bus.consumer|rebuild|export`` run them as commands (a service's relay and its
  dead letters: ``python -m libs.kit.relay|deadletters``, which read the service's definition).

Importing this package loads nothing: a name below is imported from its module on first use, so a
web process that only needs ``topic_for`` never loads Kafka's client (import the module itself,
e.g. ``libs.bus.topics``, where you can).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from libs.bus.consumer import ConsumerRunner, run_consumer_process
    from libs.bus.projector import Projection, Projector
    from libs.bus.relay import OutboxRelay
    from libs.bus.topics import lifecycle_topic_for, topic_for

_HOMES = {
    "ConsumerRunner": "consumer",
    "run_consumer_process": "consumer",
    "Projection": "projector",
    "Projector": "projector",
    "OutboxRelay": "relay",
    "lifecycle_topic_for": "topics",
    "topic_for": "topics",
}

__all__ = [
    "ConsumerRunner",
    "OutboxRelay",
    "Projection",
    "Projector",
    "lifecycle_topic_for",
    "run_consumer_process",
    "topic_for",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'libs.bus' has no attribute {name!r}")
    return getattr(importlib.import_module(f"libs.bus.{home}"), name)
