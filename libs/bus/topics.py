"""How events travel on Kafka: topic names, message keys, values and headers.

- topic: ``arcana.<service>.events`` (one per publishing service); a consumer's dead letters go to
  ``arcana.<service>.dead-letters`` (see ``libs/bus/deadletters.py``);
- key: the event's stream, so every event of a stream lands in one partition, in order;
- value: the JSON of ``RecordedEvent.to_dict()`` (the envelope, exactly as exported);
- headers: ``event_id``, ``type`` and ``schema_version``, readable without parsing the value.
"""

from __future__ import annotations

import json
import re

from libs.eventstore import RecordedEvent

_SERVICE = re.compile(r"^[a-z][a-z0-9_-]*$")

Headers = list[tuple[str, bytes]]


def topic_for(service: str) -> str:
    """The topic a service publishes its events to: ``arcana.<service>.events``."""
    if not _SERVICE.match(service):
        raise ValueError(f"not a service name: {service!r}")
    return f"arcana.{service}.events"


def lifecycle_topic_for(service: str) -> str:
    """``arcana.<service>.lifecycle``: the few events other services act on, where a service's main
    topic also carries a high volume of events they would only skip (match: every move)."""
    return topic_for(service).removesuffix(".events") + ".lifecycle"


def dead_letter_topic(service: str) -> str:
    """The topic of the dead letters of a service's consumers: ``arcana.<service>.dead-letters``."""
    return topic_for(service).removesuffix(".events") + ".dead-letters"


def message_key(event: RecordedEvent) -> bytes:
    return event.stream.encode()


def message_value(event: RecordedEvent) -> bytes:
    return json.dumps(event.to_dict(), separators=(",", ":"), sort_keys=True).encode()


def message_headers(event: RecordedEvent) -> Headers:
    return [
        ("event_id", str(event.event_id).encode()),
        ("type", event.type.encode()),
        ("schema_version", str(event.schema_version).encode()),
    ]


def decode_value(value: bytes) -> RecordedEvent:
    """The event carried by a message value; raises ``ValueError`` when it is not one."""
    try:
        return RecordedEvent.from_dict(json.loads(value))
    except (KeyError, TypeError, AttributeError, json.JSONDecodeError) as exc:
        raise ValueError(f"not an event envelope: {exc!r}") from exc


def header(headers: Headers | None, name: str) -> str | None:
    """The value of header ``name`` decoded as text (bytes that are not UTF-8 replaced), or None."""
    for key, raw in headers or ():
        if key == name:
            return bytes(raw).decode("utf-8", "replace") if raw is not None else None
    return None
