"""Event store on PostgreSQL (or in memory, for tests: ``MemoryEventStore``): append with optimistic
concurrency, read a stream, follow all; the one command path of every service
(``Repository.execute``, ``UnitOfWork``)."""

from libs.eventstore.cache import StreamCache
from libs.eventstore.causation import caused_by
from libs.eventstore.envelope import NewEvent, RecordedEvent, utcnow
from libs.eventstore.errors import (
    ConcurrencyError,
    DuplicateEventError,
    EventStoreError,
    StaleRead,
    TooManyConflicts,
    UndeclaredEvent,
)
from libs.eventstore.fold import Decided, Fold, Loaded, Snapshots
from libs.eventstore.memory import MemoryEventStore, MemoryTransaction
from libs.eventstore.ports import Store
from libs.eventstore.repository import ATTEMPTS, Repository, Transaction
from libs.eventstore.store import EventStore, Expect, ExpectedVersion, QueuedAppend, stream_moved
from libs.eventstore.typed import EventTypes, UnknownEventType
from libs.eventstore.unit_of_work import Project, UnitOfWork
from libs.eventstore.upcasting import Upcasters

__all__ = [
    "ATTEMPTS",
    "ConcurrencyError",
    "Decided",
    "DuplicateEventError",
    "EventStore",
    "EventStoreError",
    "EventTypes",
    "Expect",
    "ExpectedVersion",
    "Fold",
    "Loaded",
    "MemoryEventStore",
    "MemoryTransaction",
    "NewEvent",
    "Project",
    "QueuedAppend",
    "RecordedEvent",
    "Repository",
    "Snapshots",
    "StaleRead",
    "Store",
    "StreamCache",
    "TooManyConflicts",
    "Transaction",
    "UndeclaredEvent",
    "UnitOfWork",
    "UnknownEventType",
    "Upcasters",
    "caused_by",
    "stream_moved",
    "utcnow",
]
