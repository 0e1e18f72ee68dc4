"""A consumer started before its topic exists waits for it, then reads it.

With the dev broker, a group that joins before its topic exists is assigned no partition, and the
rejoin once the topic appears is assigned none either: such a consumer read nothing until it
restarted (a shared e2e stack whose consumers started a few seconds before its relays had created
the topics never paid a wallet). The runner now subscribes only once every topic exists."""

from __future__ import annotations

from libs.bus import ConsumerRunner, OutboxRelay, topic_for
from libs.db import migrate
from libs.eventstore import EventStore
from tests.integration.bus.helpers import CountingModel, append_events, wait_until


def _runner(
    store: EventStore, model: CountingModel, name: str, topics: list[str], bootstrap: str
) -> ConsumerRunner:
    return ConsumerRunner(store.pool, store.schema, name, topics, model.handle, bootstrap)


def test_a_consumer_started_before_its_topic_reads_it_once_the_relay_creates_it(
    store: EventStore, model: CountingModel, service: str, kafka_bootstrap: str
) -> None:
    topic = topic_for(service)
    runner = _runner(store, model, f"{service}-early", [topic], kafka_bootstrap)
    relay = OutboxRelay(store, service, kafka_bootstrap)
    runner.start()
    try:
        wait_until(lambda: runner.waiting_for == [topic], 30, "the consumer waiting for its topic")
        # Long enough missing for a group that had joined at once to have been assigned nothing
        # (about 5 s with the dev broker): a dozen looks, half a second apart.
        wait_until(lambda: runner.topic_checks >= 12, 60, "the topic missing for a dozen looks")
        assert runner.waiting_for == [topic]
        events = append_events(store, 12, streams=3)
        relay.start()  # creates the topic, then publishes
        wait_until(lambda: len(model.counts()) == 12, 60, "the 12 events applied")
        assert runner.waiting_for == []
    finally:
        relay.stop()
        runner.stop()
    assert model.counts() == {str(e.event_id): 1 for e in events}


def test_a_consumer_waiting_for_its_topic_stops_when_told(
    store: EventStore, model: CountingModel, service: str, kafka_bootstrap: str
) -> None:
    topic = topic_for(service)
    runner = _runner(store, model, f"{service}-stop", [topic], kafka_bootstrap)
    thread = runner.start()
    wait_until(lambda: runner.waiting_for == [topic], 30, "the consumer waiting for its topic")
    runner.stop(timeout=10)
    assert not thread.is_alive()


def test_a_consumer_of_two_topics_waits_for_the_second_and_then_reads_both(
    postgres_url: str, store: EventStore, model: CountingModel, service: str, kafka_bootstrap: str
) -> None:
    later_service = f"{service}late"
    later_store = EventStore(store.pool, f"{store.schema}_late")
    migrate(postgres_url, later_store.schema)
    first, later = topic_for(service), topic_for(later_service)
    relay = OutboxRelay(store, service, kafka_bootstrap)
    later_relay = OutboxRelay(later_store, later_service, kafka_bootstrap)
    runner = _runner(store, model, f"{service}-both", [first, later], kafka_bootstrap)
    relay.start()
    try:
        events = append_events(store, 6, streams=2)
        wait_until(lambda: relay.progress()[0] == events[-1].position, 60, "the first topic published")
        runner.start()
        wait_until(lambda: runner.waiting_for == [later], 30, "the consumer waiting for the second topic")
        wait_until(lambda: runner.topic_checks >= 12, 60, "the second topic missing for a dozen looks")
        assert model.counts() == {}  # nothing read before every topic exists
        events += append_events(later_store, 5, streams=1, prefix="late")
        later_relay.start()
        wait_until(lambda: len(model.counts()) == 11, 60, "both topics' 11 events applied")
        assert runner.waiting_for == []
    finally:
        later_relay.stop()
        relay.stop()
        runner.stop()
    assert model.counts() == {str(e.event_id): 1 for e in events}
