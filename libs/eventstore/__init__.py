"""Event store on PostgreSQL: append with optimistic concurrency, read a stream, follow all."""

from libs.eventstore.envelope import NewEvent, RecordedEvent, utcnow
from libs.eventstore.errors import ConcurrencyError, DuplicateEventError, EventStoreError
from libs.eventstore.store import EventStore, Expect, ExpectedVersion, QueuedAppend, stream_moved
from libs.eventstore.upcasting import Upcasters

__all__ = [
    "ConcurrencyError",
    "DuplicateEventError",
    "EventStore",
    "EventStoreError",
    "Expect",
    "ExpectedVersion",
    "NewEvent",
    "QueuedAppend",
    "RecordedEvent",
    "Upcasters",
    "stream_moved",
    "utcnow",
]
