"""Stored events as the typed events a service declares (its catalog): the one ``event_from``.

A service's streams hold the events of its catalog (``IntegrationEvent`` classes, one per stored
``type``). ``EventTypes(declared).event_from(type, data)`` is the event of a stored type and data;
``evolving(evolve)`` makes a fold's ``evolve`` over typed events one over stored events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from libs.contracts.base import IntegrationEvent
from libs.eventstore.envelope import RecordedEvent

S = TypeVar("S")


class UnknownEventType(KeyError):
    """A stored type that the service does not declare."""


class EventTypes:
    """The event classes of a service by their stored ``TYPE``."""

    def __init__(self, declared: Iterable[type[IntegrationEvent]]) -> None:
        self.by_type: dict[str, type[IntegrationEvent]] = {cls.TYPE: cls for cls in declared}

    def __contains__(self, kind: object) -> bool:
        return kind in self.by_type

    def classes(self) -> tuple[type[IntegrationEvent], ...]:
        return tuple(self.by_type.values())

    def event_from(self, kind: str, data: Mapping[str, Any]) -> IntegrationEvent:
        """The event of a stored ``kind`` and ``data``; raises ``UnknownEventType`` for a type not
        declared."""
        try:
            cls = self.by_type[kind]
        except KeyError:
            raise UnknownEventType(kind) from None
        return cls.from_data(data)

    def evolving(
        self, evolve: Callable[[S, Any], S], *, skip_unknown: bool = False
    ) -> Callable[[S, RecordedEvent], S]:
        """``evolve`` (state, typed event) as a fold's ``evolve`` (state, stored event).
        ``skip_unknown``: a type this version does not declare leaves the state as it is (else it
        raises ``UnknownEventType``)."""

        def evolve_stored(state: S, r: RecordedEvent) -> S:
            if skip_unknown and r.type not in self.by_type:
                return state
            return evolve(state, self.event_from(r.type, r.data))

        return evolve_stored
