"""The one codec between JSON and typed values, driven by type hints. Standard library only.

Every type hint the project declares (the fields of integration events and of the games' events, a
game's state, a service's state kept in a snapshot) is read in one place, ``kind(hint)``, once per
hint, into a :class:`Kind` (``libs.codec.kinds``):

- ``check(value)``: whether the JSON value has that type (strict: a bool is no int, a string no
  number; a ``dict[int, ...]`` has JSON's string keys);
- ``decode(value)``: the typed value (a tuple, frozenset or set from a list, an enum by its value, a
  ``datetime`` from ISO 8601, a dataclass from an object, a read-only mapping for a ``Mapping``), or
  :class:`DecodeError`. A JSON-native type (``str``, ``list[str]``, ``dict[str, Any]``...) decodes
  to the value itself, once checked;
- ``schema()``: its JSON Schema (2020-12); ``name()``: as written for readers (``str or null``).

``encode(value)`` is the inverse: ``decode(type(v), encode(v)) == v``. A dataclass decodes from an
object with its fields (keys it does not declare are ignored; one it declares without a default is
required); ``Any`` keeps the JSON as given.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping
from datetime import date, datetime
from typing import Any, TypeVar
from uuid import UUID

from libs.codec.kinds import DecodeError, Field, Kind, decode_fields, field_types, fields_of, kind, problems

__all__ = [
    "DecodeError",
    "Field",
    "Kind",
    "decode",
    "decode_fields",
    "decoder",
    "encode",
    "field_types",
    "fields_of",
    "kind",
    "problems",
]

T = TypeVar("T")

_AS_IS = frozenset({str, int, float, bool, type(None)})  # exactly these (a str Enum is not one)


def decode(hint: Any, data: Any) -> Any:
    """The value of type ``hint`` whose JSON form is ``data``; raises :class:`DecodeError`."""
    return kind(hint).decode(data)


def decoder(cls: type[T]) -> Callable[[Any], T]:
    """``decode`` of ``cls`` as a function: e.g. a snapshot policy's ``load``."""
    read: Callable[[Any], T] = kind(cls).decode
    return read


def encode(value: Any) -> Any:
    """``value`` as JSON-able data: dataclasses by field, tuples and lists as lists, sets sorted,
    mappings with string keys, enums by value, datetimes, dates and UUIDs as strings."""
    if type(value) in _AS_IS:
        return value
    if isinstance(value, enum.Enum):
        return encode(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in fields_of(type(value))}
    if isinstance(value, list | tuple):
        return [encode(v) for v in value]
    if isinstance(value, frozenset | set):
        return sorted(encode(v) for v in value)
    if isinstance(value, Mapping):
        return {str(k): encode(v) for k, v in value.items()}
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, str | int | float):  # a subclass of a scalar
        return value
    raise TypeError(f"no JSON form for {type(value).__name__}")
