"""Schema evolution by upcasting on read: stored events are never rewritten.

An upcaster turns the ``data`` of ``(type, schema_version)`` into the data of the next version.
They chain: v1 -> v2 -> v3 are applied in turn until none is registered for the current version.
One that needs the envelope (a field the old shape left to the stream's name, or to
``occurred_at``) is registered with ``register_enveloped`` and also gets the event as stored.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from libs.eventstore.envelope import RecordedEvent

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
# (data of the old version, the event as stored) -> data of the next version
EnvelopedUpcaster = Callable[[dict[str, Any], RecordedEvent], dict[str, Any]]


class Upcasters:
    def __init__(self) -> None:
        self._by_key: dict[tuple[str, int], EnvelopedUpcaster] = {}

    def register(self, event_type: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
        """Decorator: ``@upcasters.register("CardPlayed", 1)`` on a function ``data_v1 -> data_v2``."""

        def decorate(fn: Upcaster) -> Upcaster:
            self._add(event_type, from_version, lambda data, _event: fn(data))
            return fn

        return decorate

    def register_enveloped(
        self, event_type: str, from_version: int
    ) -> Callable[[EnvelopedUpcaster], EnvelopedUpcaster]:
        """Decorator: like ``register``, on a function ``(data_v1, stored event) -> data_v2``."""

        def decorate(fn: EnvelopedUpcaster) -> EnvelopedUpcaster:
            self._add(event_type, from_version, fn)
            return fn

        return decorate

    def _add(self, event_type: str, from_version: int, fn: EnvelopedUpcaster) -> None:
        key = (event_type, from_version)
        if key in self._by_key:
            raise ValueError(f"an upcaster for {key} is already registered")
        self._by_key[key] = fn

    def upcast(self, event: RecordedEvent) -> RecordedEvent:
        data, version = event.data, event.schema_version
        while (fn := self._by_key.get((event.type, version))) is not None:
            data, version = fn(data, event), version + 1
        if version == event.schema_version:
            return event
        return replace(event, data=data, schema_version=version)
