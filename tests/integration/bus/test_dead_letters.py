"""A poison event becomes a dead letter after the bounded attempts, the partition goes on, and a
retry after the fix applies it exactly once (real PostgreSQL, real broker)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import psycopg
import pytest
from psycopg import sql
from psycopg_pool import PoolTimeout

from libs.bus import ConsumerRunner, OutboxRelay, deadletters, topic_for
from libs.bus.consumer import HandlerFailed, database_unreachable
from libs.bus.deadletters import Outcome
from libs.bus.topics import dead_letter_topic, message_value
from libs.contracts import PlayerRegistered
from libs.eventstore import EventStore, RecordedEvent
from tests.integration.bus.helpers import CountingModel, RawReader, append_events, wait_until
from tests.integration.bus.test_consumer import inbox_count


def in_inbox(store: EventStore, consumer: str, event: RecordedEvent) -> bool:
    query = sql.SQL("SELECT 1 FROM {} WHERE consumer = %s AND event_id = %s").format(
        sql.Identifier(store.schema, "inbox")
    )
    with store.pool.connection() as conn:
        return conn.execute(query, (consumer, event.event_id)).fetchone() is not None


class PoisonedHandler:
    """Applies events to the counting model but raises for one event while ``broken``."""

    def __init__(self, model: CountingModel, poison: RecordedEvent) -> None:
        self.model = model
        self.poison = poison
        self.broken = True
        self.poison_calls = 0

    def __call__(self, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
        self.model.handle(event, conn)  # written, then rolled back when we raise
        if event.event_id == self.poison.event_id:
            self.poison_calls += 1
            if self.broken:
                raise RuntimeError(f"cannot digest {event.event_id}")


def test_poison_event_is_dead_lettered_the_partition_goes_on_and_a_retry_applies_it_once(
    store: EventStore, model: CountingModel, service: str, kafka_bootstrap: str
) -> None:
    events = append_events(store, 12, streams=2)
    poison = events[4]  # stream s-0; s-0's later events are on the same partition, after it
    later_on_its_partition = [e for e in events if e.stream == poison.stream and e.version > poison.version]
    assert later_on_its_partition
    handler = PoisonedHandler(model, poison)
    name = f"{service}-dl"
    relay = OutboxRelay(store, service, kafka_bootstrap)
    runner = ConsumerRunner(
        store.pool,
        store.schema,
        name,
        [topic_for(service)],
        handler,
        kafka_bootstrap,
        service_name=service,
        max_attempts=4,
        backoff_max=0.2,
    )
    letters = RawReader(kafka_bootstrap, dead_letter_topic(service))
    relay.start()
    runner.start()
    try:
        wait_until(lambda: runner.dead_lettered == 1 and len(model.counts()) == 11, 60, "11 applied, 1 dead")
        [published] = letters.read_at_least(1, timeout=30)
    finally:
        runner.stop()
        letters.close()

    # After exactly the bounded attempts it was given up on; everything else was applied once.
    assert handler.poison_calls == 4
    assert model.counts() == {str(e.event_id): 1 for e in events if e is not poison}
    assert not in_inbox(store, name, poison)
    assert inbox_count(store, name) == 11
    [letter] = deadletters.listed(store.pool, store.schema)
    assert (letter.consumer, letter.event_id, letter.status) == (name, str(poison.event_id), "dead")
    assert letter.attempts == 4 and "cannot digest" in letter.error
    assert letter.first_failed_at <= letter.last_failed_at
    assert letter.event() == poison and letter.topic == topic_for(service)
    assert published.event["event_id"] == str(poison.event_id)
    assert published.event["envelope"] == poison.to_dict() and published.event["id"] == letter.id
    assert published.headers["consumer"] == name

    # Its offset was committed past it: the same group, restarted, does not see it again.
    again = ConsumerRunner(
        store.pool, store.schema, name, [topic_for(service)], handler, kafka_bootstrap, service_name=service
    )
    newer = append_events(store, 2, streams=2, prefix="n")
    again.start()
    try:
        wait_until(lambda: len(model.counts()) == 13, 60, "the 2 newer events applied")
    finally:
        again.stop()
        relay.stop()
    assert (again.applied, handler.poison_calls) == (2, 4)

    # The handler is fixed: a retry applies the poison event once, with its inbox row.
    handler.broken = False
    [first] = deadletters.retry_all(store.pool, store.schema, lambda consumer: handler)
    assert first == deadletters.RetryResult(letter.id, Outcome.APPLIED)
    assert model.counts()[str(poison.event_id)] == 1
    assert in_inbox(store, name, poison)
    # A second retry, of that one or of all, does nothing.
    second = deadletters.retry(store.pool, store.schema, letter.id, lambda consumer: handler)
    assert second.outcome is Outcome.NOT_WAITING
    assert deadletters.retry_all(store.pool, store.schema, lambda consumer: handler) == []
    assert model.counts() == {str(e.event_id): 1 for e in [*events, *newer]}
    assert handler.poison_calls == 5
    [done] = deadletters.listed(store.pool, store.schema, every=True)
    assert done.status == "retried" and done.retried_at is not None
    assert deadletters.listed(store.pool, store.schema) == []


def test_a_retry_that_fails_again_keeps_the_dead_letter_waiting(
    store: EventStore, model: CountingModel
) -> None:
    [event] = append_events(store, 1, streams=1)
    handler = PoisonedHandler(model, event)
    failure = deadletters.Failure.first(RuntimeError("first"))
    letter = deadletters.record(store.pool, store.schema, "c-1", event, failure, "t", 0, 7)

    result = deadletters.retry(store.pool, store.schema, letter.id, lambda consumer: handler)

    assert result.outcome is Outcome.FAILED and result.error and "cannot digest" in result.error
    [waiting] = deadletters.listed(store.pool, store.schema)
    assert waiting.status == "dead" and waiting.attempts == 2 and "cannot digest" in waiting.error
    assert model.counts() == {} and not in_inbox(store, "c-1", event)


def test_a_dead_letter_applied_meanwhile_by_a_later_delivery_is_not_applied_again(
    store: EventStore, model: CountingModel
) -> None:
    [event] = append_events(store, 1, streams=1)
    letter = deadletters.record(
        store.pool, store.schema, "c-2", event, deadletters.Failure.first(RuntimeError("x")), "t", 0, 1
    )
    runner = ConsumerRunner(store.pool, store.schema, "c-2", ["unused"], model.handle, "127.0.0.1:1")
    assert runner.apply(event) is True  # e.g. the broker was replaced and the fixed handler saw it

    result = deadletters.retry(store.pool, store.schema, letter.id, lambda consumer: model.handle)

    assert result.outcome is Outcome.ALREADY_APPLIED
    assert model.counts() == {str(event.event_id): 1}
    assert deadletters.listed(store.pool, store.schema) == []


def test_a_dead_letter_of_an_unknown_consumer_is_reported_and_left_alone(
    store: EventStore, model: CountingModel
) -> None:
    [event] = append_events(store, 1, streams=1)
    letter = deadletters.record(
        store.pool, store.schema, "gone", event, deadletters.Failure.first(RuntimeError("x")), "t", 0, 1
    )

    def no_such(consumer: str) -> deadletters.Handler:
        raise LookupError(f"no subscription {consumer!r}")

    result = deadletters.retry(store.pool, store.schema, letter.id, no_such)

    assert result.outcome is Outcome.FAILED and result.error == "no subscription 'gone'"
    [waiting] = deadletters.listed(store.pool, store.schema)
    assert waiting.attempts == 1 and waiting.status == "dead"


def test_database_outages_never_count_as_attempts(store: EventStore, model: CountingModel) -> None:
    [event] = append_events(store, 1, streams=1)
    outages = {"left": 6}

    def handler(event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
        if outages["left"] > 0:
            outages["left"] -= 1
            raise PoolTimeout("couldn't get a connection")
        model.handle(event, conn)

    runner = ConsumerRunner(
        store.pool, store.schema, "c-db", ["unused"], handler, "127.0.0.1:1", max_attempts=2
    )
    record = SimpleNamespace(topic="t", partition=0, offset=3, value=message_value(event))
    for _ in range(6):
        with pytest.raises(HandlerFailed):
            runner._apply_record(record)  # type: ignore[arg-type]
    runner._apply_record(record)  # type: ignore[arg-type]

    assert runner.dead_lettered == 0 and deadletters.listed(store.pool, store.schema) == []
    assert model.counts() == {str(event.event_id): 1}


@pytest.mark.parametrize(
    ("exc", "unreachable"),
    [
        (PoolTimeout("no connection in time"), True),
        (psycopg.OperationalError("server closed the connection unexpectedly"), True),
        (psycopg.errors.AdminShutdown(), True),
        (psycopg.errors.ConnectionFailure(), True),
        (psycopg.errors.QueryCanceled(), False),  # e.g. a statement timeout on this event
        (psycopg.errors.UniqueViolation(), False),
        (RuntimeError("a bug"), False),
    ],
)
def test_what_counts_as_the_database_being_unreachable(exc: Exception, unreachable: bool) -> None:
    assert database_unreachable(exc) is unreachable


def test_an_event_that_does_not_decode_is_a_dead_letter_at_its_first_failure(
    store: EventStore, model: CountingModel, service: str, kafka_bootstrap: str
) -> None:
    events = append_events(store, 6, streams=2)
    malformed = events[2]
    calls: list[RecordedEvent] = []

    def decoding(event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
        calls.append(event)
        data = (
            {"player_id": None}
            if event.event_id == malformed.event_id
            else {"player_id": "p", "username": "u"}
        )
        PlayerRegistered.decode_data(data)  # the consumer's boundary: a bad player_id does not decode
        model.handle(event, conn)

    name = f"{service}-decode"
    relay = OutboxRelay(store, service, kafka_bootstrap)
    runner = ConsumerRunner(
        store.pool, store.schema, name, [topic_for(service)], decoding, kafka_bootstrap,
        service_name=service, max_attempts=5, backoff_max=0.2,
    )  # fmt: skip
    relay.start()
    runner.start()
    try:
        wait_until(lambda: runner.dead_lettered == 1 and len(model.counts()) == 5, 60, "5 applied, 1 dead")
    finally:
        runner.stop()
        relay.stop()
    assert sum(e.event_id == malformed.event_id for e in calls) == 1  # not retried: it cannot decode
    [letter] = deadletters.listed(store.pool, store.schema)
    assert letter.event_id == str(malformed.event_id) and letter.attempts == 1
    assert "MalformedEvent" in letter.error and "'player_id' is not str" in letter.error
    assert not in_inbox(store, name, malformed)
