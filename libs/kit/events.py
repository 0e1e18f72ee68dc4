"""The catalog of a service's integration events: what each topic carries, for docs and checks.

The events themselves are frozen dataclasses of ``libs.contracts.IntegrationEvent`` (standard
library only; re-exported here); ``libs/contracts`` holds those that cross a topic. A service lists
its events in an :class:`EventCatalog`; ``python -m libs.kit.catalog`` writes ``docs/events.md``
from every catalog.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from libs import codec
from libs.contracts.base import IntegrationEvent, MalformedEvent, integration_event

__all__ = [
    "EventCatalog",
    "FieldDoc",
    "IntegrationEvent",
    "MalformedEvent",
    "describe",
    "integration_event",
    "qualified_type",
]


@dataclass(frozen=True)
class FieldDoc:
    name: str
    type: str
    doc: str


@dataclass(frozen=True)
class EventCatalog:
    """What one topic carries: ``events`` published by ``service`` on ``topic``. Each is a dataclass
    with ``TYPE`` and ``VERSION``: an integration event, or a game engine's typed event
    (``libs.games.arcana.facts``) on the match topics. A ``private`` topic is read only by the
    services that subscribe to it; the analysts' Kafka user is given no access (deck lists)."""

    service: str
    topic: str
    events: Sequence[Any]
    description: str = ""
    private: bool = False  # only its subscribers read it: never the analysts (libs.kit.acls)

    def types(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(e.TYPE for e in self.events))

    def event(self, type_name: str) -> Any:
        for e in self.events:
            if type_name == e.TYPE:
                return e
        raise KeyError(type_name)


def qualified_type(event: Any) -> str:
    """``TYPE``, under its game's name when the declaration names one (``GAME``: ``arena/CardDrawn``):
    a game's event may share its type with Arcana's (which name none) on the match topics."""
    game = getattr(event, "GAME", None)
    return f"{game}/{event.TYPE}" if game else str(event.TYPE)


def describe(event: Any) -> list[FieldDoc]:
    """Each field of ``event``: name, type as written for readers, and its doc."""
    return [
        FieldDoc(f.name, f.kind.name(), str(f.field.metadata.get("doc", ""))) for f in codec.fields_of(event)
    ]
