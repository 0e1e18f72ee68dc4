"""A JSON form of immutable state values, driven by their type hints: for a game's snapshot (see
``Game.snapshot``). Pure: standard library only.

``encode(value)`` turns frozen dataclasses (by field), tuples, frozensets (sorted), mappings (string
keys), enums (their value) and JSON scalars into JSON-able values; ``decode(hint, data)`` rebuilds the
value of type ``hint`` (``State``, ``tuple[int, ...]``, ``str | None``...) from it, so that
``decode(type(v), encode(v)) == v``. ``Any`` is kept as JSON gives it (e.g. a stored event's
dict). A dataclass's resolved field hints are computed once per class.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from collections.abc import Mapping
from typing import Any

from libs.contracts.base import field_types

_SCALARS = (str, int, float, bool, type(None))


def encode(value: Any) -> Any:
    """``value`` as JSON-able data (see the module's docstring)."""
    if isinstance(value, enum.Enum):
        return encode(value.value)
    if isinstance(value, _SCALARS):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: encode(getattr(value, name)) for name in _hints(type(value))}
    if isinstance(value, (tuple, list)):
        return [encode(v) for v in value]
    if isinstance(value, (frozenset, set)):
        return sorted(encode(v) for v in value)
    if isinstance(value, Mapping):
        return {str(k): encode(v) for k, v in value.items()}
    raise TypeError(f"no JSON form for {type(value).__name__}")


def decode(hint: Any, data: Any) -> Any:
    """The value of type ``hint`` whose ``encode`` is ``data``."""
    if hint is Any or hint is object:
        return data
    origin = typing.get_origin(hint)
    if origin is None:
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            hints = _hints(hint)
            return hint(**{name: decode(hints[name], data[name]) for name in hints if name in data})
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            return hint(data)
        if hint is float and isinstance(data, int):
            return float(data)
        if hint in _SCALARS:
            if not isinstance(data, hint):
                raise TypeError(f"{data!r} is not a {hint.__name__}")
            return data
        raise TypeError(f"cannot decode {hint!r}")
    args = typing.get_args(hint)
    if origin is typing.Union or origin is types.UnionType:
        if data is None and type(None) in args:
            return None
        options = [a for a in args if a is not type(None)]
        if len(options) != 1:
            raise TypeError(f"ambiguous union {hint!r}")
        return decode(options[0], data)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return origin(decode(args[0], v) for v in data)
        if len(args) != len(data):
            raise TypeError(f"{data!r} is not a {hint!r}")
        return tuple(decode(a, v) for a, v in zip(args, data, strict=True))
    if origin in (frozenset, set):
        return origin(decode(args[0], v) for v in data)
    if origin is list:
        return [decode(args[0], v) for v in data]
    if origin in (dict, Mapping, typing.Mapping):
        key, item = args if args else (str, Any)
        return {(int(k) if key is int else decode(key, k)): decode(item, v) for k, v in data.items()}
    raise TypeError(f"cannot decode {hint!r}")


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    """The resolved type of each ``init`` field of dataclass ``cls``, in field order (resolved by
    ``field_types``, as the integration events' decode resolves them)."""
    resolved = field_types(cls)
    return {f.name: resolved[f.name] for f in dataclasses.fields(cls) if f.init}
