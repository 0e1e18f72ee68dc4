"""An e2e stack given no broker runs on one of its own (``harness/stack.py``). On one shared broker
the stacks read each other's topics (a stack's consumer groups start at the earliest offset), and
one stack's match service answered another's match requests: a foreign rejection failed a ticket
whose own match existed (docs/testing.md, "Thirteenth pass")."""

from __future__ import annotations

import uuid
from pathlib import Path

from kafka import KafkaAdminClient, KafkaConsumer
from kafka.admin import NewTopic

from harness.stack import Stack
from services.matchmaking.events import TOPIC


def _topics(bootstrap: str) -> set[str]:
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=None, enable_auto_commit=False)
    try:
        return set(consumer.topics())
    finally:
        consumer.close()


def _create(bootstrap: str, topic: str) -> None:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        admin.create_topics([NewTopic(topic, num_partitions=1, replication_factor=1)])
    finally:
        admin.close()


def test_stacks_given_no_broker_each_publish_where_no_other_stack_reads(
    postgres_url: str, tmp_path: Path
) -> None:
    first = Stack(postgres_url, None, tmp_path / "first")
    second = Stack(postgres_url, None, tmp_path / "second")
    try:
        assert first.kafka != second.kafka
        # what every process of each stack is started with
        assert (first.env["KAFKA_BOOTSTRAP_SERVERS"], second.env["KAFKA_BOOTSTRAP_SERVERS"]) == (
            first.kafka,
            second.kafka,
        )
        _create(first.kafka, TOPIC)
        assert TOPIC in _topics(first.kafka)
        assert TOPIC not in _topics(second.kafka)
    finally:
        first.close()
        second.close()
    assert first.broker is not None and not first.broker.alive()  # stopped with its stack


def test_a_stack_given_a_broker_uses_it_and_leaves_it_running(
    postgres_url: str, kafka_bootstrap: str, tmp_path: Path
) -> None:
    kept = f"kept-{uuid.uuid4().hex[:8]}"
    _create(kafka_bootstrap, kept)
    stack = Stack(postgres_url, kafka_bootstrap, tmp_path / "given")
    assert stack.env["KAFKA_BOOTSTRAP_SERVERS"] == kafka_bootstrap
    stack.close()
    assert stack.broker is None
    assert kept in _topics(kafka_bootstrap)  # the given broker still runs, its topics with it
