"""The unit of work: one transaction in which a command's events are appended and the read models
they change are updated, so both commit or neither does.

It runs in a transaction someone else opened: the repository's own, a web request's (its
``Idempotency-Key`` record commits with it) or a savepoint of a consumer's inbox transaction.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Collection, Sequence
from datetime import datetime
from typing import Any

import psycopg
from psycopg import pq

from libs.contracts.base import IntegrationEvent
from libs.eventstore.envelope import NewEvent, RecordedEvent
from libs.eventstore.errors import UndeclaredEvent
from libs.eventstore.store import EventStore, ExpectedVersion, stream_moved

Conn = psycopg.Connection[Any]
# The read models of a service: (the transaction, the events just appended to one stream) -> None.
Project = Callable[[Conn, Sequence[RecordedEvent]], None]


class UnitOfWork:
    """Appends of one command on ``conn`` (inside an open transaction), each applied to the read
    models by ``project`` in the same transaction. ``declared``: the only event classes it may append
    (the service's declaration, ``docs/service-template.md``); anything else raises ``UndeclaredEvent``."""

    def __init__(
        self,
        conn: Conn,
        store: EventStore,
        project: Project | None = None,
        declared: Collection[type[IntegrationEvent]] | None = None,
    ) -> None:
        self.conn = conn
        self.store = store
        self.project = project
        self.declared = None if declared is None else frozenset(declared)
        self.recorded: list[RecordedEvent] = []

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
        recorded = self._pipelined(stream, expected, new) if pipelined else self._plain(stream, expected, new)
        self.recorded += recorded
        return recorded

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

    def _plain(self, stream: str, expected: ExpectedVersion, new: list[NewEvent]) -> list[RecordedEvent]:
        # No savepoint of its own: a failed append fails the command's whole (sub)transaction.
        recorded = self.store.append(stream, expected, new, conn=self.conn, savepoint=False)
        if self.project is not None:
            self.project(self.conn, recorded)
        return recorded

    def _pipelined(self, stream: str, expected: ExpectedVersion, new: list[NewEvent]) -> list[RecordedEvent]:
        if not isinstance(expected, int):
            raise ValueError("a pipelined append needs an exact expected version")
        if self.conn.pgconn.pipeline_status != pq.PipelineStatus.OFF:
            # The caller's pipeline: its sync (and any refusal) comes when the caller's block ends.
            predicted = self.store.append_queued(self.conn, stream, expected, new).predicted()
            if self.project is not None:
                self.project(self.conn, predicted)
            return predicted
        try:
            with self.conn.pipeline():
                predicted = self.store.append_queued(self.conn, stream, expected, new).predicted()
                if self.project is not None:
                    self.project(self.conn, predicted)
        except psycopg.Error as exc:
            if stream_moved(exc) or _duplicate_event(exc):
                raise self.store.append_failure(exc, stream, expected) from None
            raise  # a read model's own refusal (e.g. a unique key): the caller knows what it means
        return predicted


def _duplicate_event(exc: psycopg.Error) -> bool:
    return (
        isinstance(exc, psycopg.errors.UniqueViolation) and exc.diag.constraint_name == "events_event_id_key"
    )
