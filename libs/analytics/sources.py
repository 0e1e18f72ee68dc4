"""The events of one stream from wherever an analyst has them: the service's database, a JSON Lines
export (``arcana export``) or a Kafka topic (the match records topic). Each source gives the same
list: the stream's events once each (republished copies dropped by ``event_id``), in version order,
so one replay path serves all three."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from psycopg_pool import ConnectionPool

from libs.db.analyst import readable_schema
from libs.eventstore import EventStore, RecordedEvent, Upcasters

ENDING_TYPE = "MatchEnded"
RECORDS_TOPIC = "arcana.match.records"


class SourceError(ValueError):
    """The source cannot be read as asked (a line that is not an event, a topic that is not there)."""


def _in_order(events: Iterable[RecordedEvent]) -> list[RecordedEvent]:
    unique = {e.event_id: e for e in events}
    return sorted(unique.values(), key=lambda e: e.version)


def from_database(
    pool: ConnectionPool, schema: str, stream: str, upcasters: Upcasters | None = None
) -> list[RecordedEvent]:
    """The events of ``stream`` as analysts may read them: through the analysts' view of
    ``schema`` (``libs.db.analyst``: a match only once it has ended) when the database has one."""
    with pool.connection() as conn:
        readable = readable_schema(conn, schema)
    return EventStore(pool, readable, upcasters).read(stream)


def missing_versions(events: Sequence[RecordedEvent]) -> list[int]:
    """The versions absent from a stream's events (in version order): 1..n must all be there."""
    have = {e.version for e in events}
    return [v for v in range(1, max(have, default=0) + 1) if v not in have]


def from_export(lines: Iterable[str], stream: str, service: str | None = None) -> list[RecordedEvent]:
    """The events of ``stream`` in an export (of ``service`` only, when named)."""
    found = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            raw: dict[str, Any] = json.loads(line)
            if raw["stream"] != stream or (service and raw.get("service", service) != service):
                continue
            found.append(RecordedEvent.from_dict(raw))
        except (ValueError, KeyError, TypeError) as exc:
            raise SourceError(f"line {number} is not an exported event: {exc}") from None
    return _in_order(found)


def _complete(events: dict[Any, RecordedEvent]) -> bool:
    """Versions 1..n all there, the last one the end of the match."""
    if not events:
        return False
    versions = sorted(e.version for e in events.values())
    last = max(events.values(), key=lambda e: e.version)
    return versions == list(range(1, len(versions) + 1)) and last.type == ENDING_TYPE


def read_topic(
    bootstrap: str,
    topic: str,
    *,
    keep: Callable[[bytes | None], bool] = lambda key: True,
    enough: Callable[[dict[Any, RecordedEvent]], bool] = lambda found: False,
    idle_seconds: float = 3.0,
    options: dict[str, Any] | None = None,
) -> list[RecordedEvent]:
    """The events on ``topic`` whose message key ``keep`` accepts, each once (by ``event_id``), read
    from the beginning of every partition without a consumer group (nothing is committed). Reading
    stops when ``enough(found)`` or after ``idle_seconds`` without a message. In position order."""
    from kafka import KafkaConsumer, TopicPartition

    from libs.bus.topics import decode_value

    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False, **(options or {}))
    try:
        partitions = consumer.partitions_for_topic(topic)
        if not partitions:
            raise SourceError(f"no topic {topic!r} on {bootstrap}")
        consumer.assign([TopicPartition(topic, p) for p in sorted(partitions)])
        consumer.seek_to_beginning()
        found: dict[Any, RecordedEvent] = {}
        quiet_since = time.monotonic()
        while time.monotonic() - quiet_since < idle_seconds and not enough(found):
            for records in consumer.poll(timeout_ms=200).values():
                quiet_since = time.monotonic()
                for record in records:
                    if keep(record.key):
                        event = decode_value(record.value)
                        found[event.event_id] = event
        return sorted(found.values(), key=lambda e: e.position)
    finally:
        consumer.close()


def from_topic(bootstrap: str, topic: str, stream: str, **options: Any) -> list[RecordedEvent]:
    """The events of ``stream`` on ``topic``; reading stops once the stream is complete (versions
    1..n ending with ``MatchEnded``) or the topic has been quiet (see :func:`read_topic`)."""
    key = stream.encode()
    return _in_order(read_topic(bootstrap, topic, keep=lambda k: k == key, enough=_complete, **options))


def add_replay_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of a match replay (``arcana replay``, ``python -m services.match.replay``)."""
    parser.add_argument("match_id")
    parser.add_argument("--as", dest="player", help="show the events as this player sees them")
    parser.add_argument("--schema", default="match", help="the match service's schema (database source)")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--export", metavar="FILE", help="read the match from a JSON Lines export")
    source.add_argument(
        "--topic",
        nargs="?",
        const=RECORDS_TOPIC,
        help=f"read the match from a topic (default {RECORDS_TOPIC})",
    )
