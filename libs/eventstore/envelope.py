"""The event envelope: one shape for every event of every service (docs/architecture.md)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from libs.eventstore import causation


def utcnow() -> datetime:
    return datetime.now(UTC)


def in_utc(moment: datetime) -> datetime:
    """``moment`` in UTC (a naive one is taken as UTC): an envelope's time never follows the time
    zone of the database session, process or broker it was read through."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment if moment.tzinfo is UTC else moment.astimezone(UTC)


@dataclass(frozen=True)
class NewEvent:
    """An event about to be appended: a past-tense ``type`` and its JSON-able ``data``."""

    type: str
    data: dict[str, Any]
    schema_version: int = 1
    event_id: uuid.UUID = field(default_factory=uuid.uuid4)
    occurred_at: datetime = field(default_factory=utcnow)
    correlation_id: uuid.UUID | None = field(default_factory=causation.correlation_id)
    causation_id: uuid.UUID | None = field(default_factory=causation.causation_id)

    def __post_init__(self) -> None:
        object.__setattr__(self, "occurred_at", in_utc(self.occurred_at))

    @classmethod
    def of(cls, fact: Any, **envelope: Any) -> NewEvent:
        """A typed event (``libs.kit.events.IntegrationEvent``: ``TYPE``, ``VERSION``, ``data()``)
        about to be appended; ``envelope`` sets ``occurred_at``, ``event_id``, ``correlation_id``..."""
        return cls(fact.TYPE, fact.data(), schema_version=fact.VERSION, **envelope)

    def to_dict(self) -> dict[str, Any]:
        """The envelope as JSON-able values (the shape ``append_events`` reads, migrations/003)."""
        return _json_fields(self)


@dataclass(frozen=True)
class RecordedEvent:
    """An event as stored: the envelope plus its place in its stream and in the global order."""

    event_id: uuid.UUID
    stream: str
    version: int
    position: int
    type: str
    schema_version: int
    occurred_at: datetime
    correlation_id: uuid.UUID | None
    causation_id: uuid.UUID | None
    data: dict[str, Any]

    def __post_init__(self) -> None:
        object.__setattr__(self, "occurred_at", in_utc(self.occurred_at))

    def to_dict(self) -> dict[str, Any]:
        """The envelope as JSON-able values (the shape of exports and of Kafka message values)."""
        fields = _json_fields(self)
        place = {"stream": self.stream, "version": self.version, "position": self.position}
        return {"event_id": fields.pop("event_id"), **place, **fields}

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> RecordedEvent:
        def _uuid(value: Any) -> uuid.UUID | None:
            return uuid.UUID(value) if value else None

        return cls(
            event_id=uuid.UUID(raw["event_id"]),
            stream=raw["stream"],
            version=int(raw["version"]),
            position=int(raw["position"]),
            type=raw["type"],
            schema_version=int(raw.get("schema_version", 1)),
            occurred_at=datetime.fromisoformat(raw["occurred_at"]),
            correlation_id=_uuid(raw.get("correlation_id")),
            causation_id=_uuid(raw.get("causation_id")),
            data=raw["data"],
        )


def _json_fields(e: NewEvent | RecordedEvent) -> dict[str, Any]:
    """The fields every envelope has, as JSON-able values."""
    return {
        "event_id": str(e.event_id),
        "type": e.type,
        "schema_version": e.schema_version,
        "occurred_at": e.occurred_at.isoformat(),
        "correlation_id": str(e.correlation_id) if e.correlation_id else None,
        "causation_id": str(e.causation_id) if e.causation_id else None,
        "data": e.data,
    }
