"""Schema evolution by upcasting on read: stored events are never rewritten.

An upcaster turns the ``data`` of ``(type, schema_version)`` into the data of the next version.
They chain: v1 -> v2 -> v3 are applied in turn until none is registered for the current version.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from libs.eventstore.envelope import RecordedEvent

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


class Upcasters:
    def __init__(self) -> None:
        self._by_key: dict[tuple[str, int], Upcaster] = {}

    def register(self, event_type: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
        """Decorator: ``@upcasters.register("CardPlayed", 1)`` on a function ``data_v1 -> data_v2``."""

        def decorate(fn: Upcaster) -> Upcaster:
            key = (event_type, from_version)
            if key in self._by_key:
                raise ValueError(f"an upcaster for {key} is already registered")
            self._by_key[key] = fn
            return fn

        return decorate

    def upcast(self, event: RecordedEvent) -> RecordedEvent:
        data, version = event.data, event.schema_version
        while (fn := self._by_key.get((event.type, version))) is not None:
            data, version = fn(data), version + 1
        if version == event.schema_version:
            return event
        return replace(event, data=data, schema_version=version)
