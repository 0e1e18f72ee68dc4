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
import types
import typing
from collections.abc import Callable, Mapping
from datetime import date, datetime
from enum import Enum
from typing import Any, ClassVar, Protocol, TypeVar
from uuid import UUID

E = TypeVar("E", bound="IntegrationEvent")

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


class MalformedEvent(ValueError):
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
        return {f.name: _jsonable(getattr(self, f.name)) for f in dataclasses.fields(self)}  # type: ignore[arg-type]

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
        hints = field_types(cls)
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            if f.name not in current:
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                    raise MalformedEvent(f"{cls.TYPE}: no {f.name!r}")
                continue
            value = current[f.name]
            if not conforms(value, hints[f.name]):
                raise MalformedEvent(
                    f"{cls.TYPE}: {f.name!r} is not {type_name(hints[f.name])}: {value!r:.200}"
                )
            values[f.name] = value
        return cls(**values)


_FIELD_TYPES: dict[type, dict[str, Any]] = {}


def field_types(cls: type) -> dict[str, Any]:
    """The declared field types of ``cls``, resolved once per class (``get_type_hints`` evaluates every
    annotation string again at each call: most of a decode's time)."""
    found = _FIELD_TYPES.get(cls)
    if found is None:
        found = _FIELD_TYPES[cls] = typing.get_type_hints(cls)
    return found


def integration_event(type_name: str, *, version: int = 1) -> Callable[[type[E]], type[E]]:
    """Name and version an integration event class."""

    def mark(cls: type[E]) -> type[E]:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls.__name__} must be a dataclass")
        cls.TYPE = type_name
        cls.VERSION = version
        return cls

    return mark


def conforms(value: Any, hint: Any) -> bool:
    """Whether the JSON value ``value`` has the declared type ``hint``."""
    try:
        check = _checks[hint]
    except KeyError:
        check = _checks[hint] = _check(hint)
    except TypeError:  # an unhashable hint: checked without keeping its check
        check = _check(hint)
    return check(value)


_checks: dict[Any, Callable[[Any], bool]] = {}


def _check(hint: Any) -> Callable[[Any], bool]:
    """``conforms`` for one ``hint``, worked out once per hint (a decode checks the same few hints
    for every event: reading them again each time was most of a decode's time)."""
    if hint is Any:
        return lambda value: True
    if hint is type(None) or hint is None:
        return lambda value: value is None
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return lambda value: any(conforms(value, a) for a in args)
    if origin in (list, tuple):
        item = args[0] if args else Any
        return lambda value: isinstance(value, list | tuple) and all(conforms(v, item) for v in value)
    if origin is dict:
        key, item = args or (Any, Any)
        return lambda value: (
            isinstance(value, dict) and all(conforms(k, key) and conforms(v, item) for k, v in value.items())
        )
    if hint is bool:
        return lambda value: isinstance(value, bool)
    if hint is int:
        return lambda value: isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return lambda value: isinstance(value, int | float) and not isinstance(value, bool)
    if isinstance(hint, type):
        return lambda value: isinstance(value, hint)
    return lambda value: False


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


_AS_IS = frozenset({str, int, float, bool})  # exactly these (a str Enum is not one): JSON already


def _jsonable(value: Any) -> Any:
    if value is None or type(value) in _AS_IS:
        return value
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
