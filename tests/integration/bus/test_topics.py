"""The message format on Kafka (pure: no broker needed)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest

from libs.bus.topics import (
    decode_value,
    header,
    lifecycle_topic_for,
    message_headers,
    message_key,
    message_value,
    topic_for,
)
from libs.eventstore import RecordedEvent


def sample() -> RecordedEvent:
    return RecordedEvent(
        event_id=uuid.uuid4(),
        stream="match-7",
        version=3,
        position=42,
        type="CardPlayed",
        schema_version=2,
        occurred_at=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
        correlation_id=uuid.uuid4(),
        causation_id=None,
        data={"card": "fireball", "targets": [1, 2]},
    )


def test_topic_names() -> None:
    assert topic_for("match") == "arcana.match.events"
    assert lifecycle_topic_for("match") == "arcana.match.lifecycle"
    with pytest.raises(ValueError):
        topic_for("Match Service")


def test_message_round_trip() -> None:
    event = sample()
    assert message_key(event) == b"match-7"
    assert decode_value(message_value(event)) == event
    headers = message_headers(event)
    assert header(headers, "event_id") == str(event.event_id)
    assert header(headers, "type") == "CardPlayed"
    assert header(headers, "schema_version") == "2"
    assert header(headers, "missing") is None


@pytest.mark.parametrize("value", [b"not json", b"{}", b"[1, 2]", b'{"event_id": "x"}'])
def test_garbage_is_not_an_event(value: bytes) -> None:
    with pytest.raises(ValueError):
        decode_value(value)
