"""What the event store raises."""

from __future__ import annotations


class EventStoreError(Exception):
    """Base class of the event store's own errors."""


class ConcurrencyError(EventStoreError):
    """The stream is not at the expected version: someone else appended first.

    Retry the command from a fresh read; nothing of this append was written.
    """

    def __init__(self, stream: str, expected: object, actual: int) -> None:
        super().__init__(f"stream {stream!r} is at version {actual}, expected {expected}")
        self.stream = stream
        self.expected = expected
        self.actual = actual


class DuplicateEventError(EventStoreError):
    """An event with this ``event_id`` is already stored (a retried append): nothing was written."""
