"""``kind(hint)``: what the codec knows of one type hint, worked out once per hint (see ``libs.codec``).

The one walk over type hints: strict decoding of events, snapshots of states and JSON Schemas all
read a hint through its :class:`Kind`. A dataclass's fields are read on first use (so a dataclass may
refer to itself).
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from datetime import date, datetime
from types import MappingProxyType
from typing import Any

Check = Callable[[Any], bool]
Decode = Callable[[Any], Any]


class DecodeError(ValueError):
    """A JSON value that is not of the type it is read as."""


class Kind:
    """One type hint as the codec reads it: ``check`` a JSON value, ``decode`` it into the typed value
    (:class:`DecodeError` when it does not check), its ``name`` for readers and its JSON ``schema``.
    A ``native`` kind decodes to the value itself (JSON already has its type)."""

    __slots__ = ("_name", "_schema", "check", "decode", "native")

    def __init__(
        self,
        check: Check,
        decode: Decode | None,
        name: Callable[[], str],
        schema: Callable[[], dict[str, Any]],
    ) -> None:
        self.check = check
        self.native = decode is None
        self.decode: Decode = decode or self._as_is
        self._name = name
        self._schema = schema

    def name(self) -> str:
        return self._name()

    def schema(self) -> dict[str, Any]:
        return self._schema()

    def _as_is(self, value: Any) -> Any:
        if self.check(value):
            return value
        raise DecodeError(f"is not {self.name()}: {value!r:.200}")


_KINDS: dict[Any, Kind] = {}


def kind(hint: Any) -> Kind:
    """The :class:`Kind` of ``hint``; ``TypeError`` for a type with no JSON form."""
    try:
        return _KINDS[hint]
    except KeyError:
        found = _KINDS[hint] = _make(hint)
        return found
    except TypeError:  # an unhashable hint: read without keeping its kind
        return _make(hint)


def _const(value: Any) -> Callable[[], Any]:
    return lambda: value


def _make(hint: Any) -> Kind:
    if hint is Any or hint is object:
        return Kind(lambda value: True, None, _const("any"), _const({}))
    if hint is None or hint is type(None):
        return Kind(lambda value: value is None, None, _const("null"), _const({"type": "null"}))
    origin = typing.get_origin(hint)
    if origin is not None:
        return _generic(hint, origin, typing.get_args(hint))
    if hint in _SCALARS:
        return _SCALARS[hint]()
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return _enum(hint)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass(hint)
    if hint in (datetime, date):
        return _iso(hint)
    raise TypeError(f"no JSON form for {hint!r}")


def _bool() -> Kind:
    return Kind(lambda v: isinstance(v, bool), None, _const("bool"), _const({"type": "boolean"}))


def _int() -> Kind:
    return Kind(_is_int, None, _const("int"), _const({"type": "integer"}))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _float() -> Kind:
    def check(value: Any) -> bool:
        return isinstance(value, int | float) and not isinstance(value, bool)

    def decode(value: Any) -> float:
        if check(value):
            return float(value)
        raise DecodeError(f"is not float: {value!r:.200}")

    return Kind(check, decode, _const("float"), _const({"type": "number"}))


def _str() -> Kind:
    return Kind(lambda v: isinstance(v, str), None, _const("str"), _const({"type": "string"}))


_SCALARS: dict[Any, Callable[[], Kind]] = {bool: _bool, int: _int, float: _float, str: _str}


def _generic(hint: Any, origin: Any, args: tuple[Any, ...]) -> Kind:
    if origin in (typing.Union, types.UnionType):
        return _union([kind(a) for a in args])
    if origin is typing.ClassVar:
        raise TypeError(f"no JSON form for {hint!r}")
    name = _generic_name(origin, args)
    if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis) and args:
        return _fixed_tuple([kind(a) for a in args], name)
    if origin in (list, tuple, Sequence):
        return _sequence(kind(args[0]) if args else kind(Any), tuple if origin is tuple else None, name)
    if origin in (frozenset, set, AbstractSet):
        return _sequence(kind(args[0]) if args else kind(Any), set if origin is set else frozenset, name)
    if origin in (dict, Mapping):
        key, item = args or (str, Any)
        return _mapping(key, kind(item), name, MappingProxyType if origin is Mapping else None)
    raise TypeError(f"no JSON form for {hint!r}")


def _generic_name(origin: Any, args: tuple[Any, ...]) -> str:
    shown = ", ".join("..." if a is Ellipsis else kind(a).name() for a in args)
    return f"{getattr(origin, '__name__', str(origin))}[{shown}]"


def _union(options: list[Kind]) -> Kind:
    def check(value: Any) -> bool:
        return any(o.check(value) for o in options)

    def decode(value: Any) -> Any:
        for o in options:
            if o.check(value):
                return o.decode(value)
        raise DecodeError(f"is not {name()}: {value!r:.200}")

    def name() -> str:
        return " or ".join(o.name() for o in options)

    native = all(o.native for o in options)
    return Kind(check, None if native else decode, name, lambda: {"anyOf": [o.schema() for o in options]})


def _sequence(item: Kind, into: type | None, name: str) -> Kind:
    """``list[X]`` (``into`` None: a list), ``tuple[X, ...]``, ``frozenset[X]`` or ``set[X]`` from a
    JSON array."""

    def check(value: Any) -> bool:
        return isinstance(value, list | tuple) and all(item.check(v) for v in value)

    def decode(value: Any) -> Any:
        if not isinstance(value, list | tuple):
            raise DecodeError(f"is not {name}: {value!r:.200}")
        decoded = [item.decode(v) for v in value]
        return decoded if into is None else into(decoded)

    schema: dict[str, Any] = {"type": "array"}
    if into in (set, frozenset):
        schema["uniqueItems"] = True
    native = into is None and item.native
    return Kind(check, None if native else decode, _const(name), lambda: {**schema, "items": item.schema()})


def _fixed_tuple(items: list[Kind], name: str) -> Kind:
    def check(value: Any) -> bool:
        return (
            isinstance(value, list | tuple)
            and len(value) == len(items)
            and all(k.check(v) for k, v in zip(items, value, strict=True))
        )

    def decode(value: Any) -> tuple[Any, ...]:
        if not isinstance(value, list | tuple) or len(value) != len(items):
            raise DecodeError(f"is not {name}: {value!r:.200}")
        return tuple(k.decode(v) for k, v in zip(items, value, strict=True))

    def schema() -> dict[str, Any]:
        prefix = [k.schema() for k in items]
        return {"type": "array", "prefixItems": prefix, "minItems": len(items), "maxItems": len(items)}

    return Kind(check, decode, _const(name), schema)


def _mapping(key: Any, item: Kind, name: str, into: type | None) -> Kind:
    """A JSON object: string keys, or integers written as strings for ``dict[int, X]``; a ``dict``,
    or (``into``) a read-only mapping for a ``Mapping[K, V]`` (as a frozen state declares one)."""
    keys = _int_key() if key is int else kind(key)

    def check(value: Any) -> bool:
        return isinstance(value, dict) and all(keys.check(k) and item.check(v) for k, v in value.items())

    def decode(value: Any) -> Mapping[Any, Any]:
        if not isinstance(value, dict):
            raise DecodeError(f"is not {name}: {value!r:.200}")
        decoded = {keys.decode(k): item.decode(v) for k, v in value.items()}
        return decoded if into is None else into(decoded)

    native = keys.native and item.native and into is None
    return Kind(check, None if native else decode, _const(name), lambda: _object_of(item))


def _object_of(item: Kind) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": item.schema()}


def _int_key() -> Kind:
    def check(value: Any) -> bool:
        return _is_int(value) or (isinstance(value, str) and value.lstrip("-").isdigit())

    def decode(value: Any) -> int:
        if check(value):
            return int(value)
        raise DecodeError(f"is not an integer key: {value!r:.200}")

    return Kind(check, decode, _const("int"), _const({"type": "string", "pattern": "^-?[0-9]+$"}))


def _enum(cls: type[enum.Enum]) -> Kind:
    values = [m.value for m in cls]

    def decode(value: Any) -> enum.Enum:
        try:
            return cls(value)
        except (ValueError, TypeError):
            raise DecodeError(f"is not a {cls.__name__}: {value!r:.200}") from None

    return Kind(lambda v: v in values, decode, _const(cls.__name__), lambda: {"enum": list(values)})


def _iso(cls: type[date]) -> Kind:
    """A ``datetime`` or ``date`` as ISO 8601 text."""

    def decode(value: Any) -> date:
        try:
            return cls.fromisoformat(value)
        except (ValueError, TypeError):
            raise DecodeError(f"is not a {cls.__name__}: {value!r:.200}") from None

    def check(value: Any) -> bool:
        try:
            decode(value)
        except DecodeError:
            return False
        return True

    fmt = "date-time" if cls is datetime else "date"
    return Kind(check, decode, _const(cls.__name__), _const({"type": "string", "format": fmt}))


def _dataclass(cls: type) -> Kind:
    def check(value: Any) -> bool:
        return isinstance(value, Mapping) and not problems(cls, value)

    def decode(value: Any) -> Any:
        return cls(**decode_fields(cls, value))

    def schema() -> dict[str, Any]:
        fields = fields_of(cls)
        return {
            "type": "object",
            "properties": {f.name: f.kind.schema() for f in fields},
            "required": [f.name for f in fields if f.required],
        }

    return Kind(check, decode, _const(cls.__name__), schema)


# -- dataclasses --------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Field:
    """One ``init`` field of a dataclass: its name, its type's kind, whether it is required (no
    default) and its declaration (``field.metadata``)."""

    name: str
    kind: Kind
    required: bool
    field: dataclasses.Field[Any]


_FIELDS: dict[type, tuple[Field, ...]] = {}


def fields_of(cls: type) -> tuple[Field, ...]:
    """The ``init`` fields of dataclass ``cls``, in order, worked out once per class."""
    found = _FIELDS.get(cls)
    if found is None:
        hints = field_types(cls)
        found = _FIELDS[cls] = tuple(
            Field(f.name, kind(hints[f.name]), _required(f), f) for f in dataclasses.fields(cls) if f.init
        )
    return found


def _required(f: dataclasses.Field[Any]) -> bool:
    return f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING


_FIELD_TYPES: dict[type, dict[str, Any]] = {}


def field_types(cls: type) -> dict[str, Any]:
    """The declared field types of ``cls``, resolved once per class (``get_type_hints`` evaluates every
    annotation string again at each call: most of a decode's time)."""
    found = _FIELD_TYPES.get(cls)
    if found is None:
        found = _FIELD_TYPES[cls] = typing.get_type_hints(cls)
    return found


def decode_fields(cls: type, data: Any) -> dict[str, Any]:
    """The decoded value of each field of dataclass ``cls`` that ``data`` (an object) holds: the
    arguments of ``cls(...)``. Raises :class:`DecodeError` at the first field missing (without a
    default) or not of its type; keys ``cls`` does not declare are ignored."""
    if not isinstance(data, Mapping):
        raise DecodeError(f"is not an object: {data!r:.200}")
    values = {}
    for name, decode, required, kind_ in _decoders(cls):
        if name in data:
            value = data[name]
            try:
                values[name] = decode(value)
            except DecodeError:
                raise DecodeError(f"{name!r} is not {kind_.name()}: {value!r:.200}") from None
        elif required:
            raise DecodeError(f"no {name!r}")
    return values


_DECODERS: dict[type, tuple[tuple[str, Decode, bool, Kind], ...]] = {}


def _decoders(cls: type) -> tuple[tuple[str, Decode, bool, Kind], ...]:
    """Each field's name, decode, whether it is required and kind: read in ``decode_fields``'s loop
    without an attribute lookup (it runs for every event a consumer reads)."""
    found = _DECODERS.get(cls)
    if found is None:
        found = _DECODERS[cls] = tuple((f.name, f.kind.decode, f.required, f.kind) for f in fields_of(cls))
    return found


def problems(cls: type, data: Mapping[str, Any], fields: Iterable[Field] | None = None) -> list[str]:
    """Every way ``data`` does not match dataclass ``cls``'s ``fields`` (default: all of them; empty:
    it conforms), each worded as ``decode_fields`` words it."""
    found = []
    for f in fields_of(cls) if fields is None else fields:
        if f.name not in data:
            if f.required:
                found.append(f"no {f.name!r}")
        elif not f.kind.check(data[f.name]):
            found.append(f"{f.name!r} is not {f.kind.name()}: {data[f.name]!r:.80}")
    return found
