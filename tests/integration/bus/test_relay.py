"""The outbox relay publishes every event, in position order per stream, keyed by stream."""

from __future__ import annotations

from collections import defaultdict

from libs.bus import OutboxRelay, topic_for
from libs.bus.cluster import ClusterProbe
from libs.eventstore import EventStore
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
