"""Shared helpers of the bus tests: events to append, a counting read model, a raw Kafka reader."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import psycopg
from kafka import KafkaConsumer, TopicPartition
from psycopg import sql
from psycopg_pool import ConnectionPool

from harness.waiting import wait_until as wait_until  # where the tests have always found it
from libs.eventstore import EventStore, Expect, NewEvent, RecordedEvent


def append_events(store: EventStore, count: int, streams: int = 5, prefix: str = "s") -> list[RecordedEvent]:
    """Append ``count`` events spread round-robin over ``streams`` streams, one append each."""
    recorded: list[RecordedEvent] = []
    for i in range(count):
        stream = f"{prefix}-{i % streams}"
        event = NewEvent("ThingHappened", {"n": i, "stream": stream})
        recorded.extend(store.append(stream, Expect.ANY, [event]))
    return recorded


class CountingModel:
    """A read model that counts how many times each event was applied (2 = a duplicate got in)."""

    def __init__(self, pool: ConnectionPool, schema: str, table: str = "applied") -> None:
        self.pool = pool
        self.table = sql.Identifier(schema, table)
        with pool.connection() as conn:
            conn.execute(
                sql.SQL(
                    "CREATE TABLE IF NOT EXISTS {} (event_id UUID PRIMARY KEY, stream TEXT NOT NULL, "
                    "version INT NOT NULL, times INT NOT NULL)"
                ).format(self.table)
            )
        self._upsert = sql.SQL(
            "INSERT INTO {t} (event_id, stream, version, times) VALUES (%s, %s, %s, 1) "
            "ON CONFLICT (event_id) DO UPDATE SET times = {t}.times + 1"
        ).format(t=self.table)

    def handle(self, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
        conn.execute(self._upsert, (event.event_id, event.stream, event.version))

    def counts(self) -> dict[str, int]:
        with self.pool.connection() as conn:
            rows = conn.execute(sql.SQL("SELECT event_id, times FROM {}").format(self.table)).fetchall()
        return {str(r[0]): int(r[1]) for r in rows}


@dataclass
class Message:
    partition: int
    offset: int
    key: str
    event: dict[str, Any]
    headers: dict[str, str]


class RawReader:
    """Reads every message of a topic without a group (no join delay), from the beginning."""

    def __init__(self, bootstrap: str, topic: str) -> None:
        self.topic = topic
        self.consumer = KafkaConsumer(
            bootstrap_servers=bootstrap,
            group_id=None,
            enable_auto_commit=False,
            auto_offset_reset="earliest",
            consumer_timeout_ms=200,
            allow_auto_create_topics=False,
        )
        self.messages: list[Message] = []
        self._assigned = False

    def _assign(self) -> bool:
        partitions = self.consumer.partitions_for_topic(self.topic)
        if not partitions:
            return False
        tps = [TopicPartition(self.topic, p) for p in sorted(partitions)]
        self.consumer.assign(tps)
        self.consumer.seek_to_beginning(*tps)
        self._assigned = True
        return True

    def poll(self) -> list[Message]:
        if not self._assigned and not self._assign():
            return self.messages
        for tp, records in self.consumer.poll(timeout_ms=200, max_records=5000).items():
            for r in records:
                self.messages.append(
                    Message(
                        tp.partition,
                        r.offset,
                        r.key.decode(),
                        json.loads(r.value),
                        {k: v.decode() for k, v in r.headers},
                    )
                )
        return self.messages

    def read_at_least(self, count: int, timeout: float) -> list[Message]:
        wait_until(lambda: len(self.poll()) >= count, timeout, f"{count} messages on {self.topic}")
        return self.messages

    def close(self) -> None:
        self.consumer.close()
