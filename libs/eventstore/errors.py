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


class TooManyConflicts(ConcurrencyError):
    """A command met a version conflict on every one of its attempts; nothing of it was written."""

    def __init__(self, attempts: int, last: ConcurrencyError) -> None:
        EventStoreError.__init__(self, f"{attempts} attempts, each met a concurrent append: {last}")
        self.stream, self.expected, self.actual = last.stream, last.expected, last.actual
        self.attempts = attempts


class UndeclaredEvent(EventStoreError):
    """A command tried to append an event its service does not declare."""


class StaleRead(ConcurrencyError):
    """What a command read is outdated by a concurrent writer, found before its append: retry it
    like a version conflict."""

    def __init__(self, what: str = "a concurrent change") -> None:
        EventStoreError.__init__(self, what)
        self.stream, self.expected, self.actual = "", None, -1
