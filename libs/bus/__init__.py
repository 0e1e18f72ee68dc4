"""The Kafka bus: outbox relay, idempotent consumers, local projections, replay tools.

- ``relay.OutboxRelay`` publishes a service's events to ``arcana.<service>.events``;
- ``consumer.ConsumerRunner`` applies other services' events once each (inbox);
- ``projector.Projector`` keeps a read model of the service's own events, ``rebuild()`` redoes it;
- ``deadletters`` keeps the events a consumer gave up on, ``purge`` the inbox purge policy;
- ``python -m libs.bus.relay|consumer|rebuild|export|deadletters`` run them as commands.
"""

from libs.bus.consumer import ConsumerRunner, run_consumer_process
from libs.bus.export import export_events
from libs.bus.projector import Projection, Projector
from libs.bus.relay import OutboxRelay
from libs.bus.topics import lifecycle_topic_for, topic_for

__all__ = [
    "ConsumerRunner",
    "OutboxRelay",
    "Projection",
    "Projector",
    "export_events",
    "lifecycle_topic_for",
    "run_consumer_process",
    "topic_for",
]
