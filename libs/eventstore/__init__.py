"""Event store on PostgreSQL: append with optimistic concurrency, read a stream, follow all; the
one command path of every service (``Repository.execute``, ``UnitOfWork``)."""

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
from libs.eventstore.repository import ATTEMPTS, Fold, Loaded, Repository, Snapshots, Transaction
from libs.eventstore.store import EventStore, Expect, ExpectedVersion, QueuedAppend, stream_moved
from libs.eventstore.unit_of_work import Project, UnitOfWork
from libs.eventstore.upcasting import Upcasters

__all__ = [
    "ATTEMPTS",
    "ConcurrencyError",
    "DuplicateEventError",
    "EventStore",
    "EventStoreError",
    "Expect",
    "ExpectedVersion",
    "Fold",
    "Loaded",
    "NewEvent",
    "Project",
    "QueuedAppend",
    "RecordedEvent",
    "Repository",
    "Snapshots",
    "StaleRead",
    "StreamCache",
    "TooManyConflicts",
    "Transaction",
    "UndeclaredEvent",
    "UnitOfWork",
    "Upcasters",
    "caused_by",
    "stream_moved",
    "utcnow",
]
