"""How one kind of stream becomes a state (``Fold``), kept as a snapshot (``Snapshots``), and what a
read of it gives (``Loaded``) or a decision on it stored (``Decided``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from libs.eventstore.cache import StreamCache
from libs.eventstore.envelope import RecordedEvent

S = TypeVar("S")


@dataclass(frozen=True)
class Snapshots(Generic[S]):
    """How a long stream's state is kept in the store's ``snapshots`` table: ``save``/``load``
    to and from JSON, of shape ``version`` (bump it when the state changes: older ones are
    ignored; ``load`` may also refuse one, None). A read takes one when it folded ``every``
    events or more since the last one; a decision stored through ``UnitOfWork.record``, when
    its version crosses a multiple of ``every``."""

    version: int
    save: Callable[[S], dict[str, Any] | None]  # None: nothing worth keeping (e.g. no state yet)
    load: Callable[[dict[str, Any]], S | None]  # None: of another shape after all (fold instead)
    every: int = 50


# Writes that go with every stored decision on a kind of stream, in its transaction (queued with
# the append when it is pipelined): (the transaction, the stream, the state decided, its events).
BeforeCommit = Callable[[Any, str, Any, Sequence[RecordedEvent]], None]


@dataclass(frozen=True)
class Fold(Generic[S]):
    """How one kind of stream becomes a state: ``initial()`` then ``evolve(state, event)`` for each
    event in order. ``evolve`` must not change the state it is given once it is cached or
    snapshotted (return a new one), unless neither is set. ``before_commit``: see
    ``BeforeCommit`` (the decisions stored through ``UnitOfWork.record`` only)."""

    initial: Callable[[], S]
    evolve: Callable[[S, RecordedEvent], S]
    snapshots: Snapshots[S] | None = None
    cache: StreamCache | None = None
    before_commit: BeforeCommit | None = None

    def folded(self, state: S, events: Sequence[RecordedEvent]) -> S:
        for event in events:
            state = self.evolve(state, event)
        return state


@dataclass(frozen=True)
class Loaded(Generic[S]):
    state: S
    version: int  # of the last event folded (0: no event); append at it


@dataclass(frozen=True)
class Decided(Generic[S]):
    """A decision stored by ``UnitOfWork.record``: the state after it and its events as recorded
    (a pipelined append's as predicted: positions 0 until ``queued.recorded()`` after the sync)."""

    state: S
    version: int
    events: Sequence[RecordedEvent]
    queued: Any = None  # the pipelined append (``QueuedAppend``), if it was one
