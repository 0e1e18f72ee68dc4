"""Correlation and causation ids, set one way for every service.

An event written while a consumed event is being handled (``caused_by``, which the consumer runner
and the dead-letter retry put around every handler) names that event as its cause: its
``causation_id`` is the consumed event's id, its ``correlation_id`` the consumed event's
correlation id, or that event's own id when it starts the chain. Every way an event is built
(``NewEvent``, hence ``UnitOfWork.append`` and the match service's own appends) takes them from
here, so no service sets them by hand. An event written outside any handler (a player's request,
a timer) starts a chain: both ids are empty.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Protocol


class Cause(Protocol):
    @property
    def event_id(self) -> uuid.UUID: ...

    @property
    def correlation_id(self) -> uuid.UUID | None: ...


_current: ContextVar[Cause | None] = ContextVar("arcana_cause", default=None)


@contextmanager
def caused_by(event: Cause) -> Iterator[None]:
    """Events built inside the block name ``event`` as their cause."""
    token = _current.set(event)
    try:
        yield
    finally:
        _current.reset(token)


def causation_id() -> uuid.UUID | None:
    cause = _current.get()
    return cause.event_id if cause is not None else None


def correlation_id() -> uuid.UUID | None:
    cause = _current.get()
    if cause is None:
        return None
    return cause.correlation_id or cause.event_id
