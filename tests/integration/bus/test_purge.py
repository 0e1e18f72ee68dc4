"""The inbox purge policy: rows of events older than the horizon go, and those events still never
apply twice, even when a new broker makes the relay publish everything again."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

from psycopg import sql

from libs.bus import ConsumerRunner, OutboxRelay, inbox, topic_for
from libs.bus.purge import horizons, purge_inbox
from libs.eventstore import EventStore, Expect, NewEvent, RecordedEvent
from tests.integration.bus.helpers import CountingModel, RawReader, wait_until
from tests.integration.bus.test_consumer import inbox_count

HORIZON_AGE = timedelta(days=30)


def append_at(store: EventStore, stream: str, occurred_at: datetime, count: int) -> list[RecordedEvent]:
    new = [NewEvent("ThingHappened", {"n": i}, occurred_at=occurred_at) for i in range(count)]
    return store.append(stream, Expect.ANY, new)


def republish_everything(store: EventStore, relay: OutboxRelay) -> None:
    """What a new, empty broker makes the relay do: publish every event again from position 0."""
    relay.stop()
    with store.pool.connection() as conn:
        conn.execute(
            sql.SQL("UPDATE {} SET position = 0").format(sql.Identifier(store.schema, "relay_progress"))
        )
    relay.start()


def test_purged_old_events_are_not_applied_again_when_everything_is_published_again(
    store: EventStore, model: CountingModel, service: str, kafka_bootstrap: str
) -> None:
    now = datetime.now(UTC)
    old = append_at(store, "old-1", now - timedelta(days=45), 6)
    recent = append_at(store, "new-1", now - timedelta(days=2), 4)
    name = f"{service}-purge"
    topic = topic_for(service)
    relay = OutboxRelay(store, service, kafka_bootstrap)
    runner = ConsumerRunner(store.pool, store.schema, name, [topic], model.handle, kafka_bootstrap)
    reader = RawReader(kafka_bootstrap, topic)
    relay.start()
    runner.start()
    try:
        wait_until(lambda: len(model.counts()) == 10, 60, "10 events applied")
        deleted = purge_inbox(store.pool, store.schema, now - HORIZON_AGE)
        assert deleted == {name: 6}  # the old events' rows went; the recent ones' stayed
        assert inbox_count(store, name) == 4
        assert horizons(store.pool, store.schema)[name] == now - HORIZON_AGE

        republish_everything(store, relay)
        reader.read_at_least(20, timeout=30)
        wait_until(lambda: runner.skipped >= 10, 60, "the 10 republished events seen")
        later = append_at(store, "new-1", now, 1)  # and the consumer still applies new events
        wait_until(lambda: len(model.counts()) == 11, 60, "the new event applied")
    finally:
        relay.stop()
        runner.stop()
        reader.close()

    assert model.counts() == {str(e.event_id): 1 for e in old + recent + later}
    assert runner.applied == 11
    assert inbox_count(store, name) == 5  # the purged rows were not written again


def test_an_event_newer_than_the_horizon_applies_once_and_an_older_one_counts_as_applied(
    store: EventStore, model: CountingModel
) -> None:
    now = datetime.now(UTC)
    runner = ConsumerRunner(store.pool, store.schema, "c-h", ["unused"], model.handle, "127.0.0.1:1")
    with store.pool.connection() as conn:
        inbox.register(conn, store.schema, "c-h")
    purge_inbox(store.pool, store.schema, now - HORIZON_AGE)
    [newer] = append_at(store, "a", now - HORIZON_AGE + timedelta(minutes=1), 1)
    [older] = append_at(store, "b", now - HORIZON_AGE - timedelta(minutes=1), 1)

    assert runner.apply(newer) is True
    assert runner.apply(newer) is False
    # Older than the horizon: its row could have been purged, so it is never applied (the reason
    # the horizon must be longer than any consumer outage).
    assert runner.apply(older) is False
    assert model.counts() == {str(newer.event_id): 1}


def test_the_horizon_never_moves_back(store: EventStore) -> None:
    now = datetime.now(UTC)
    with store.pool.connection() as conn:
        inbox.register(conn, store.schema, "c-m")
    purge_inbox(store.pool, store.schema, now - timedelta(days=10))
    purge_inbox(store.pool, store.schema, now - timedelta(days=30))
    assert horizons(store.pool, store.schema) == {"c-m": now - timedelta(days=10)}


def test_a_consumer_without_a_horizon_is_registered_first_and_purged_on_the_next_run(
    store: EventStore,
) -> None:
    now = datetime.now(UTC)
    [event] = append_at(store, "legacy-1", now - timedelta(days=90), 1)
    with store.pool.connection() as conn:  # a row written before the consumer had a horizon row
        assert inbox.claim(conn, store.schema, "legacy", event)

    assert purge_inbox(store.pool, store.schema, now - HORIZON_AGE) == {}
    assert inbox_count(store, "legacy") == 1
    assert horizons(store.pool, store.schema) == {"legacy": None}  # registered; nothing purged yet
    assert purge_inbox(store.pool, store.schema, now - HORIZON_AGE) == {"legacy": 1}
    assert inbox_count(store, "legacy") == 0


def test_a_delivery_racing_with_a_purge_waits_for_it_and_sees_the_new_horizon(
    store: EventStore, model: CountingModel
) -> None:
    """A purge holds the horizon row from raising it to its commit; a delivery of an event whose
    row it is deleting waits, then counts the event as applied instead of inserting it again."""
    now = datetime.now(UTC)
    [event] = append_at(store, "race-1", now - timedelta(days=40), 1)
    runner = ConsumerRunner(store.pool, store.schema, "c-r", ["unused"], model.handle, "127.0.0.1:1")
    with store.pool.connection() as conn:
        inbox.register(conn, store.schema, "c-r")
    assert runner.apply(event) is True
    results: list[bool] = []
    purge = store.pool.getconn()
    try:
        with purge.transaction():  # what purge_inbox does for one consumer, held open here
            purge.execute(
                sql.SQL("UPDATE {} SET horizon = %s WHERE consumer = 'c-r'").format(
                    sql.Identifier(store.schema, "inbox_horizons")
                ),
                (now - HORIZON_AGE,),
            )
            purge.execute(
                sql.SQL("DELETE FROM {} WHERE consumer = 'c-r'").format(sql.Identifier(store.schema, "inbox"))
            )
            delivery = threading.Thread(target=lambda: results.append(runner.apply(event)))
            delivery.start()
            wait_until(lambda: waiting_for_a_lock(store), 30, "the delivery waiting for the purge")
        delivery.join(30)
    finally:
        store.pool.putconn(purge)
    assert results == [False]
    assert model.counts() == {str(event.event_id): 1}
    assert inbox_count(store, "c-r") == 0


def waiting_for_a_lock(store: EventStore) -> bool:
    with store.pool.connection() as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE %s",
            (f"%{store.schema}%inbox%",),
        ).fetchone()
    return bool(row and row[0])
