"""The relay's batch publisher: a page goes out in order, keyed like KafkaProducer, confirmed or raised."""

from __future__ import annotations

from collections import defaultdict

import pytest
from kafka.errors import KafkaError
from kafka.partitioner.default import DefaultPartitioner

from libs.bus.batch_publish import BatchPublisher, Message
from libs.bus.relay import OutboxRelay
from libs.eventstore import EventStore
from tests.integration.bus.helpers import RawReader


def _page(count: int, streams: int) -> list[Message]:
    return [
        Message(f"s-{i % streams}".encode(), f'{{"n": {i}}}'.encode(), [("n", str(i).encode())])
        for i in range(count)
    ]


def _create_topic(store: EventStore, service: str, bootstrap: str) -> str:
    relay = OutboxRelay(store, service, bootstrap)
    relay._create_topic()
    return relay.topic


def test_a_page_split_into_many_requests_keeps_each_key_in_order_in_its_partition(
    store: EventStore, service: str, kafka_bootstrap: str
) -> None:
    topic = _create_topic(store, service, kafka_bootstrap)
    publisher = BatchPublisher(kafka_bootstrap, topic, max_request_bytes=600)  # many requests per page
    page = _page(400, streams=9)
    try:
        publisher.publish(page[:250])
        publisher.publish(page[250:])
    finally:
        publisher.close()
    reader = RawReader(kafka_bootstrap, topic)
    try:
        messages = reader.read_at_least(400, timeout=30)
    finally:
        reader.close()
    assert len(messages) == 400
    partitions = list(range(4))  # the relay creates its topic with 4 partitions
    by_key: dict[str, list] = defaultdict(list)
    for m in sorted(messages, key=lambda m: (m.partition, m.offset)):
        # The same partition KafkaProducer's default partitioner picks, so a stream never moves.
        assert m.partition == DefaultPartitioner()(m.key.encode(), partitions, partitions)
        by_key[m.key].append(m.event["n"])
    for key, numbers in by_key.items():
        assert numbers == sorted(numbers) and len(numbers) == len(set(numbers)), key
    assert sorted(n for numbers in by_key.values() for n in numbers) == list(range(400))


def test_publishing_to_a_stopped_broker_raises_instead_of_returning(
    store: EventStore, service: str, make_broker
) -> None:  # type: ignore[no-untyped-def]
    broker = make_broker.start()
    topic = _create_topic(store, service, broker.bootstrap)
    publisher = BatchPublisher(broker.bootstrap, topic, request_timeout_ms=2000)
    try:
        publisher.publish(_page(10, streams=2))
        broker.stop()
        with pytest.raises(KafkaError):
            publisher.publish(_page(10, streams=2))
    finally:
        publisher.close()
