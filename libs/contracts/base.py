"""Integration events: typed, versioned, immutable facts that cross a topic. Standard library only.

Declare each event once, as a frozen dataclass::

    @integration_event("PlayerRegistered", version=1)
    @dataclass(frozen=True)
    class PlayerRegistered(IntegrationEvent):
        \"\"\"A player account exists.\"\"\"
        player_id: str = field(metadata={"doc": "the player's id (UUID)"})

The producer builds it and stores ``event.data()``; a consumer reads it back with
``PlayerRegistered.decode(envelope)`` at its boundary. ``decode`` is strict: a field missing (and
without a default), of the wrong JSON type, or an envelope of another type raises
:class:`MalformedEvent`, which the consumer runner turns into a dead letter at once (never an event
silently skipped or half applied). Keys it does not know are ignored (a newer producer may add
some). Older shapes are read by ``UPCASTERS`` (``{from_version: data -> data of the next}``) or by
a default for a field added later.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Protocol, TypeVar

from libs.codec import DecodeError, decode_fields, encode

E = TypeVar("E", bound="IntegrationEvent")

# The game of every event stored before events named their game (the platform hosted one game then):
# the default of each ``game`` field, so that those events still decode as they did. History, not a
# branch: which games are hosted now is the registry's (``libs.games.registry``).
FIRST_GAME = "arcana"

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


class MalformedEvent(DecodeError):
    """An event that does not decode to its declared type: its consumer dead-letters it."""


class Unacceptable(Exception):
    """Raised by a handler for a well-formed event it must never apply (e.g. a reward above what its
    rule can pay): like a ``MalformedEvent``, its consumer dead-letters it at once, without retrying."""


class Envelope(Protocol):
    """What ``decode`` reads of a stored or consumed event (``libs.eventstore.RecordedEvent``)."""

    @property
    def type(self) -> str: ...

    @property
    def schema_version(self) -> int: ...

    @property
    def data(self) -> dict[str, Any]: ...


class IntegrationEvent:
    """Base of integration events (subclasses are frozen dataclasses)."""

    TYPE: ClassVar[str]
    VERSION: ClassVar[int] = 1
    UPCASTERS: ClassVar[Mapping[int, Upcaster]] = {}

    def data(self) -> dict[str, Any]:
        """The event's fields as JSON-ready values."""
        data: dict[str, Any] = encode(self)
        return data

    @classmethod
    def from_data(cls: type[E], data: Mapping[str, Any]) -> E:
        """The event from data its own service stored (unknown keys are ignored; not checked)."""
        names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        return cls(**{k: v for k, v in data.items() if k in names})

    @classmethod
    def decode(cls: type[E], event: Envelope) -> E:
        """The event of ``event`` (another service's), checked field by field against its declared
        types after upcasting; raises ``MalformedEvent``."""
        if event.type != cls.TYPE:
            raise MalformedEvent(f"{event.type} is not a {cls.TYPE}")
        return cls.decode_data(event.data, event.schema_version)

    @classmethod
    def decode_data(cls: type[E], data: Any, version: int | None = None) -> E:
        """``decode`` of the data alone, at ``version`` (default: the current one)."""
        if not isinstance(data, Mapping):
            raise MalformedEvent(f"{cls.TYPE}: data is not an object: {data!r:.200}")
        current = dict(data)
        for v in range(version or cls.VERSION, cls.VERSION):
            upcast = cls.UPCASTERS.get(v)
            if upcast is None:
                raise MalformedEvent(f"{cls.TYPE}: no upcaster from schema version {v}")
            current = upcast(current)
        try:
            values = decode_fields(cls, current)
        except DecodeError as e:
            raise MalformedEvent(f"{cls.TYPE}: {e}") from None
        return cls(**values)


def integration_event(type_name: str, *, version: int = 1) -> Callable[[type[E]], type[E]]:
    """Name and version an integration event class."""

    def mark(cls: type[E]) -> type[E]:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls.__name__} must be a dataclass")
        cls.TYPE = type_name
        cls.VERSION = version
        return cls

    return mark
