"""The unit of work: one transaction in which a command's events are appended and the read models
they change are updated, so both commit or neither does.

It runs in a transaction someone else opened: the repository's own, a web request's (its
``Idempotency-Key`` record commits with it) or a savepoint of a consumer's inbox transaction.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Collection, Sequence
from datetime import datetime
from typing import Any, TypeVar

import psycopg

from libs.contracts.base import IntegrationEvent
from libs.eventstore.cache import Folded, StreamCache
from libs.eventstore.envelope import NewEvent, RecordedEvent
from libs.eventstore.errors import UndeclaredEvent
from libs.eventstore.fold import Decided, Fold, Loaded
from libs.eventstore.ports import Store
from libs.eventstore.store import ExpectedVersion

Conn = psycopg.Connection[Any]
# The read models of a service: (the transaction, the events just appended to one stream) -> None.
Project = Callable[[Conn, Sequence[RecordedEvent]], None]
S = TypeVar("S")


class UnitOfWork:
    """Appends of one command on ``conn`` (inside an open transaction), each applied to the read
    models by ``project`` in the same transaction. ``declared``: the only event classes it may append
    (the service's declaration, ``docs/service-template.md``); anything else raises ``UndeclaredEvent``.
    ``decided``: the states its ``record`` calls decided, for the caches once it committed."""

    def __init__(
        self,
        conn: Conn,
        store: Store,
        project: Project | None = None,
        declared: Collection[type[IntegrationEvent]] | None = None,
    ) -> None:
        self.conn = conn
        self.store = store
        self.project = project
        self.declared = None if declared is None else frozenset(declared)
        self._declared_types = None if declared is None else frozenset(e.TYPE for e in declared)
        self.recorded: list[RecordedEvent] = []
        self.decided: list[tuple[StreamCache, str, Folded]] = []

    def append(
        self,
        stream: str,
        expected: ExpectedVersion,
        events: Sequence[IntegrationEvent],
        *,
        event_ids: Sequence[uuid.UUID | None] = (),
        occurred_at: datetime | None = None,
        pipelined: bool = False,
    ) -> list[RecordedEvent]:
        """Append ``events`` to ``stream`` at ``expected`` and project them; returns them as recorded
        (``pipelined``: queued in one round trip with their projection, as predicted: position 0).

        ``event_ids[i]`` fixes the id of the i-th event (an idempotency key: a second append of it
        raises ``DuplicateEventError``). Their correlation and causation ids are those of the event
        being handled, if any (``libs.eventstore.causation``). Raises
        ``ConcurrencyError`` when the stream moved; the transaction is failed then."""
        if not events:
            return []
        new = [self._new(e, i, event_ids, occurred_at) for i, e in enumerate(events)]
        return self.append_new(stream, expected, new, pipelined=pipelined)

    def append_new(
        self,
        stream: str,
        expected: ExpectedVersion,
        new: Sequence[NewEvent],
        *,
        pipelined: bool = False,
        savepoint: bool = False,
        then: Callable[[list[RecordedEvent]], None] | None = None,
    ) -> list[RecordedEvent]:
        """``append`` of events already in their envelopes (their ``type`` declared); ``then`` runs
        after the projection, in the same transaction (pipeline). ``savepoint`` (not pipelined):
        a refused append leaves the transaction usable."""
        return self._append(stream, expected, new, pipelined, savepoint, then)[0]

    def record(
        self,
        stream: str,
        before: Loaded[S],
        events: Sequence[NewEvent | IntegrationEvent],
        fold: Fold[S],
        *,
        decided: Callable[[S, list[RecordedEvent]], S] | None = None,
        pipelined: bool = False,
        savepoint: bool = False,
    ) -> Decided[S]:
        """Store a decision taken on ``before``: its events appended at ``before.version``, the state
        after them (``decided(before.state, recorded)`` when the decision computed it, else folded)
        kept as a snapshot when its version crosses a multiple of ``fold.snapshots.every``, the
        fold's ``before_commit`` writes and the service's projection in the same transaction, and
        the state handed to ``fold.cache`` once the transaction committed (``Repository.committed``)."""
        new = [e if isinstance(e, NewEvent) else NewEvent.of(e) for e in events]
        after: list[S] = []

        def with_state(recorded: list[RecordedEvent]) -> None:
            state = decided(before.state, recorded) if decided else fold.folded(before.state, recorded)
            after.append(state)
            self._keep_snapshot(stream, fold, state, before.version, recorded[-1].version)
            if fold.before_commit is not None:
                fold.before_commit(self.conn, stream, state, recorded)

        recorded, queued = self._append(stream, before.version, new, pipelined, savepoint, with_state)
        last = recorded[-1]
        if fold.cache is not None:
            self.decided.append((fold.cache, stream, Folded(last.version, last.event_id, after[0])))
        return Decided(after[0], last.version, recorded, queued)

    def _append(
        self,
        stream: str,
        expected: ExpectedVersion,
        new: Sequence[NewEvent],
        pipelined: bool,
        savepoint: bool,
        then: Callable[[list[RecordedEvent]], None] | None,
    ) -> tuple[list[RecordedEvent], Any]:
        if not new:
            return [], None
        self._check_declared(new)

        def projected(recorded: list[RecordedEvent]) -> None:
            if self.project is not None:
                self.project(self.conn, recorded)
            if then is not None:
                then(recorded)

        queued = None
        if pipelined:
            if not isinstance(expected, int):
                raise ValueError("a pipelined append needs an exact expected version")
            queued = self.store.append_pipelined(self.conn, stream, expected, new, projected)
            recorded = queued.predicted()
        else:
            # No savepoint unless asked: a failed append fails the command's whole (sub)transaction.
            recorded = self.store.append(stream, expected, new, conn=self.conn, savepoint=savepoint)
            projected(recorded)
        self.recorded += recorded
        return recorded, queued

    def _keep_snapshot(self, stream: str, fold: Fold[S], state: S, since: int, version: int) -> None:
        policy = fold.snapshots
        if policy is None or version // policy.every <= since // policy.every:
            return
        saved = policy.save(state)
        if saved is not None:
            kept = {"shape": policy.version, "state": saved}
            self.store.save_snapshot(stream, version, kept, conn=self.conn)

    def _check_declared(self, new: Sequence[NewEvent]) -> None:
        if self._declared_types is None:
            return
        for event in new:
            if event.type not in self._declared_types:
                raise UndeclaredEvent(f"{event.type} is not declared by this service")

    def _new(
        self,
        event: IntegrationEvent,
        i: int,
        ids: Sequence[uuid.UUID | None],
        at: datetime | None,
    ) -> NewEvent:
        if self.declared is not None and type(event) not in self.declared:
            raise UndeclaredEvent(f"{type(event).__name__} is not declared by this service")
        envelope: dict[str, Any] = {}
        if i < len(ids) and ids[i] is not None:
            envelope["event_id"] = ids[i]
        if at is not None:
            envelope["occurred_at"] = at
        return NewEvent.of(event, **envelope)
