"""The outbox relay publishes every event, in position order per stream, keyed by stream."""

from __future__ import annotations

import time
import uuid
from collections import defaultdict
from pathlib import Path

from libs.bus import OutboxRelay, topic_for
from libs.bus.cluster import ClusterProbe
from libs.devstack.broker import DevBroker
from libs.devstack.ports import free_port
from libs.eventstore import EventStore, Expect, NewEvent
from tests.integration.bus.helpers import RawReader, append_events, wait_until


def test_relay_publishes_keyed_by_stream_in_position_order(
    store: EventStore, service: str, kafka_bootstrap: str
) -> None:
    events = append_events(store, 230, streams=7)
    relay = OutboxRelay(store, service, kafka_bootstrap, batch_size=100)
    relay.start()
    reader = RawReader(kafka_bootstrap, topic_for(service))
    try:
        reader.read_at_least(230, timeout=30)
        more = append_events(store, 40, streams=7, prefix="s")  # published while it runs
        events += more
        messages = reader.read_at_least(270, timeout=30)
        wait_until(lambda: relay.progress()[0] == store.head_position(), 10, "progress at the head")
    finally:
        relay.stop()
        reader.close()

    by_id = {str(e.event_id): e for e in events}
    assert {m.event["event_id"] for m in messages} == set(by_id)
    partitions_of_stream: dict[str, set[int]] = defaultdict(set)
    per_partition: dict[int, list] = defaultdict(list)
    for m in messages:
        original = by_id[m.event["event_id"]]
        assert m.key == original.stream == m.event["stream"]
        assert m.event == original.to_dict()
        assert m.headers == {
            "event_id": str(original.event_id),
            "type": original.type,
            "schema_version": str(original.schema_version),
        }
        partitions_of_stream[m.key].add(m.partition)
        per_partition[m.partition].append(m)
    assert all(len(p) == 1 for p in partitions_of_stream.values()), partitions_of_stream
    for in_partition in per_partition.values():
        in_partition.sort(key=lambda m: m.offset)
        last_position: dict[str, int] = {}
        last_version: dict[str, int] = {}
        for m in in_partition:
            assert m.event["position"] > last_position.get(m.key, 0)
            assert m.event["version"] == last_version.get(m.key, 0) + 1  # no gap, no reorder
            last_position[m.key] = m.event["position"]
            last_version[m.key] = m.event["version"]

    position, cluster_id = relay.progress()
    assert position == store.head_position()
    assert cluster_id == ClusterProbe(kafka_bootstrap).cluster_id()


def test_relay_never_passes_an_open_transaction(
    store: EventStore, service: str, kafka_bootstrap: str
) -> None:
    relay = OutboxRelay(store, service, kafka_bootstrap, poll_interval=0.02)
    reader = RawReader(kafka_bootstrap, topic_for(service))
    relay.start()
    try:
        first = append_events(store, 5, streams=2)
        reader.read_at_least(5, timeout=30)
        with store.pool.connection() as conn, conn.transaction():
            held = store.append("held-1", Expect.NO_STREAM, [NewEvent("Held", {"n": 0})], conn=conn)
            later = append_events(store, 3, prefix="later")  # committed, with higher positions
            assert min(e.position for e in later) > held[0].position
            # Give the relay many polls to (wrongly) publish the later events now.
            deadline = time.monotonic() + 0.5
            while time.monotonic() < deadline:
                assert len(reader.poll()) == 5
            assert relay.progress()[0] == first[-1].position
        messages = reader.read_at_least(9, timeout=30)
        wait_until(lambda: relay.progress()[0] == later[-1].position, 10, "progress past the later events")
    finally:
        relay.stop()
        reader.close()
    assert sorted(m.event["event_id"] for m in messages) == sorted(
        str(e.event_id) for e in first + held + later
    )


def test_relay_republishes_when_its_topic_is_gone(store: EventStore, service: str, tmp_root: Path) -> None:
    """A broker that comes back empty with the SAME cluster id: the missing topic gives it away."""
    port = free_port()
    same_id = f"fixed-{uuid.uuid4().hex}"
    broker = DevBroker(port, tmp_root / "broker-fixed.log", cluster_id=same_id)
    broker.start()
    relay = OutboxRelay(store, service, broker.bootstrap, backoff_max=0.5)
    relay.start()
    try:
        events = append_events(store, 30, streams=3)
        wait_until(lambda: relay.progress() == (events[-1].position, same_id), 30, "all published")
        broker.stop()
        broker.start()
        assert broker.cluster_id == same_id
        reader = RawReader(broker.bootstrap, topic_for(service))
        try:
            messages = reader.read_at_least(30, timeout=30)
        finally:
            reader.close()
        assert {m.event["event_id"] for m in messages} == {str(e.event_id) for e in events}
    finally:
        relay.stop()
        broker.stop()
