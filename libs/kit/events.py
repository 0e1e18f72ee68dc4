"""Integration events: the typed, versioned facts a service publishes for other services and
analysts. Standard library only, so domain code may declare them.

Declare each event once, as a frozen dataclass::

    @integration_event("PlayerRegistered", version=1)
    @dataclass(frozen=True)
    class PlayerRegistered(IntegrationEvent):
        \"\"\"A player account exists.\"\"\"
        player_id: str = field(metadata={"doc": "the player's id (UUID)"})
        username: str = field(metadata={"doc": "lower case, 3-24 of [a-z0-9_]"})

``event.data()`` is the JSON the event store keeps and the relay publishes; ``from_data`` reads it
back (ignoring keys a newer version added). A service lists its events in an
:class:`EventCatalog`; ``python -m libs.kit.catalog`` writes ``docs/events.md`` from every catalog.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from enum import Enum
from typing import Any, ClassVar, TypeVar
from uuid import UUID

E = TypeVar("E", bound="IntegrationEvent")


class IntegrationEvent:
    """Base of integration events (subclasses are frozen dataclasses)."""

    TYPE: ClassVar[str]
    VERSION: ClassVar[int] = 1

    def data(self) -> dict[str, Any]:
        """The event's fields as JSON-ready values."""
        return {f.name: _jsonable(getattr(self, f.name)) for f in dataclasses.fields(self)}  # type: ignore[arg-type]

    @classmethod
    def from_data(cls: type[E], data: Mapping[str, Any]) -> E:
        """The event from its stored/published data (unknown keys are ignored)."""
        names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        return cls(**{k: v for k, v in data.items() if k in names})


def integration_event(type_name: str, *, version: int = 1) -> Callable[[type[E]], type[E]]:
    """Name and version an integration event class."""

    def mark(cls: type[E]) -> type[E]:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls.__name__} must be a dataclass")
        cls.TYPE = type_name
        cls.VERSION = version
        return cls

    return mark


def _jsonable(value: Any) -> Any:
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


@dataclass(frozen=True)
class FieldDoc:
    name: str
    type: str
    doc: str


@dataclass(frozen=True)
class EventCatalog:
    """What one topic carries: ``events`` published by ``service`` on ``topic``."""

    service: str
    topic: str
    events: Sequence[type[IntegrationEvent]]
    description: str = ""

    def types(self) -> tuple[str, ...]:
        return tuple(e.TYPE for e in self.events)

    def event(self, type_name: str) -> type[IntegrationEvent]:
        for e in self.events:
            if type_name == e.TYPE:
                return e
        raise KeyError(type_name)


def describe(event: type[IntegrationEvent]) -> list[FieldDoc]:
    """Each field of ``event``: name, type as written for readers, and its doc."""
    hints = typing.get_type_hints(event)
    return [
        FieldDoc(f.name, type_name(hints[f.name]), str(f.metadata.get("doc", "")))
        for f in dataclasses.fields(event)  # type: ignore[arg-type]
    ]


def type_name(hint: Any) -> str:
    """A readable type: ``str``, ``int or null``, ``list[str]``, ``dict[str, int]``."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(type_name(a) for a in typing.get_args(hint))
    if origin is not None:
        args = ", ".join(type_name(a) for a in typing.get_args(hint))
        return f"{getattr(origin, '__name__', str(origin))}[{args}]"
    if hint is type(None):
        return "null"
    if hint is Any:
        return "any"
    return getattr(hint, "__name__", str(hint))
