"""Acceptance: stop the broker, append 500 events, start a new empty broker —
a consumer ends with all 500 applied once."""

from __future__ import annotations

import time

from psycopg import sql

from libs.bus import ConsumerRunner, OutboxRelay, topic_for
from libs.eventstore import EventStore
from tests.integration.bus.helpers import CountingModel, RawReader, append_events, wait_until


def test_new_empty_broker_gets_everything_again_and_consumer_applies_once(
    store: EventStore, model: CountingModel, service: str, make_broker
) -> None:  # type: ignore[no-untyped-def]
    broker = make_broker.start()
    topic = topic_for(service)
    relay, runner = _started(store, model, service, broker.bootstrap)
    try:
        before = append_events(store, 20, streams=4, prefix="before")
        wait_until(lambda: len(model.counts()) == 20, 60, "20 events applied on the first broker")
        assert relay.progress()[1] == broker.cluster_id
        # Publish those 20 again, so offsets on the old broker run ahead of the events: a consumer
        # that kept its old positions on the new broker would skip new events there.
        relay.stop()
        with store.pool.connection() as conn:
            conn.execute(
                sql.SQL("UPDATE {} SET position = 0").format(sql.Identifier(store.schema, "relay_progress"))
            )
        relay.start()
        wait_until(lambda: runner.skipped >= 20, 30, "the 20 duplicates consumed")

        broker.stop()
        after = append_events(store, 500, streams=10, prefix="after")
        new_broker = make_broker.start(broker.port)  # same address, new and empty
        assert new_broker.cluster_id != broker.cluster_id

        wait_until(lambda: len(model.counts()) == 520, 90, "all 520 events applied")
        wait_until(lambda: relay.progress() == (after[-1].position, new_broker.cluster_id), 30, "progress")
    finally:
        relay.stop()
        runner.stop()

    assert model.counts() == {str(e.event_id): 1 for e in before + after}
    assert runner.applied == 520
    wait_until(lambda: runner.cluster_id == new_broker.cluster_id, 10, "the consumer noticed the new broker")
    # The relay published everything again to the new broker, from the first event on.
    reader = RawReader(new_broker.bootstrap, topic)
    try:
        messages = reader.read_at_least(520, timeout=30)
    finally:
        reader.close()
    assert {m.event["event_id"] for m in messages} == {str(e.event_id) for e in before + after}


def test_a_topic_created_again_after_the_consumer_saw_it_missing_is_read_within_seconds(
    store: EventStore, model: CountingModel, service: str, make_broker
) -> None:  # type: ignore[no-untyped-def]
    """The consumer's periodic metadata refresh is every 30 s: a topic created again on a new broker
    is noticed sooner, by the fetches that met it missing."""
    broker = make_broker.start()
    relay, runner = _started(store, model, service, broker.bootstrap)
    try:
        append_events(store, 5, streams=1, prefix="before")
        wait_until(lambda: len(model.counts()) == 5, 60, "5 events applied on the first broker")
        relay.stop()
        broker.stop()
        new_broker = make_broker.start(broker.port)  # same address, new and empty: no topic
        wait_until(
            lambda: runner.cluster_id == new_broker.cluster_id, 30, "the consumer noticed the new broker"
        )
        time.sleep(3)  # its fetches meet the missing topic meanwhile
        append_events(store, 5, streams=1, prefix="after")
        relay = OutboxRelay(store, service, new_broker.bootstrap, backoff_max=1.0)
        relay.start()  # creates the topic again and publishes all 10 events
        started = time.monotonic()
        wait_until(lambda: len(model.counts()) == 10, 60, "the 5 new events applied")
        assert time.monotonic() - started < 15, "the consumer waited for its periodic metadata refresh"
    finally:
        relay.stop()
        runner.stop()


def _started(
    store: EventStore, model: CountingModel, service: str, bootstrap: str
) -> tuple[OutboxRelay, ConsumerRunner]:
    """The service's relay and a consumer of its topic, both running."""
    relay = OutboxRelay(store, service, bootstrap, backoff_max=1.0)
    runner = ConsumerRunner(
        store.pool,
        store.schema,
        f"{service}-c",
        [topic_for(service)],
        model.handle,
        bootstrap,
        backoff_max=1.0,
    )
    relay.start()
    runner.start()
    return relay, runner
