"""The consumer runner applies each event once, whatever Kafka delivers twice."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg import sql

from libs.bus import ConsumerRunner, OutboxRelay, topic_for
from libs.bus.topics import message_value
from libs.config import PROJECT_ROOT
from libs.eventstore import EventStore, Expect, NewEvent, RecordedEvent
from tests.integration.bus.helpers import CountingModel, RawReader, append_events, wait_until


def inbox_count(store: EventStore, consumer: str) -> int:
    query = sql.SQL("SELECT count(*) FROM {} WHERE consumer = %s").format(
        sql.Identifier(store.schema, "inbox")
    )
    with store.pool.connection() as conn:
        row = conn.execute(query, (consumer,)).fetchone()
    return int(row[0]) if row else 0


def test_republished_events_change_nothing(
    store: EventStore, model: CountingModel, service: str, kafka_bootstrap: str
) -> None:
    events = append_events(store, 60, streams=4)
    topic = topic_for(service)
    relay = OutboxRelay(store, service, kafka_bootstrap)
    runner = ConsumerRunner(
        store.pool, store.schema, f"{service}-idem", [topic], model.handle, kafka_bootstrap
    )
    relay.start()
    runner.start()
    reader = RawReader(kafka_bootstrap, topic)
    try:
        wait_until(lambda: len(model.counts()) == 60, 60, "60 events applied")
        # Make the relay publish everything again, as after a crash before recording progress.
        relay.stop()
        with store.pool.connection() as conn:
            conn.execute(
                sql.SQL("UPDATE {} SET position = 0").format(sql.Identifier(store.schema, "relay_progress"))
            )
        relay.start()
        reader.read_at_least(120, timeout=30)
        wait_until(lambda: runner.skipped >= 60, 30, "the 60 republished events seen")
    finally:
        relay.stop()
        runner.stop()
        reader.close()

    ids = [m.event["event_id"] for m in reader.messages]
    assert len(ids) == 120 and len(set(ids)) == 60  # every event was really delivered twice
    assert model.counts() == {str(e.event_id): 1 for e in events}
    assert runner.applied == 60
    assert runner.skipped >= 60  # more only if Kafka redelivered too
    assert inbox_count(store, f"{service}-idem") == 60
    # The same event handed over directly once more is still a no-op.
    assert runner.apply(events[0]) is False
    assert model.counts()[str(events[0].event_id)] == 1


def test_failing_handler_is_retried_and_applies_once(
    store: EventStore, model: CountingModel, service: str, kafka_bootstrap: str
) -> None:
    events = append_events(store, 10, streams=2)
    poisoned = events[3].event_id
    failures = {"left": 3}

    def flaky(event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
        model.handle(event, conn)  # written, then rolled back when we raise
        if event.event_id == poisoned and failures["left"] > 0:
            failures["left"] -= 1
            raise RuntimeError("transient trouble")

    topic = topic_for(service)
    relay = OutboxRelay(store, service, kafka_bootstrap)
    runner = ConsumerRunner(
        store.pool, store.schema, f"{service}-flaky", [topic], flaky, kafka_bootstrap, backoff_max=0.5
    )
    relay.start()
    runner.start()
    try:
        wait_until(lambda: len(model.counts()) == 10, 60, "10 events applied")
    finally:
        relay.stop()
        runner.stop()
    assert failures["left"] == 0
    assert model.counts() == {str(e.event_id): 1 for e in events}
    assert inbox_count(store, f"{service}-flaky") == 10


def test_restarted_consumer_resumes_from_committed_offsets(
    store: EventStore, model: CountingModel, service: str, kafka_bootstrap: str
) -> None:
    topic = topic_for(service)
    relay = OutboxRelay(store, service, kafka_bootstrap)
    relay.start()
    name = f"{service}-resume"
    try:
        first = append_events(store, 30, streams=3)
        runner = ConsumerRunner(store.pool, store.schema, name, [topic], model.handle, kafka_bootstrap)
        runner.start()
        try:
            wait_until(lambda: len(model.counts()) == 30, 60, "30 events applied")
        finally:
            runner.stop()
        second = append_events(store, 10, streams=3)
        again = ConsumerRunner(store.pool, store.schema, name, [topic], model.handle, kafka_bootstrap)
        again.start()
        try:
            wait_until(lambda: len(model.counts()) == 40, 60, "40 events applied")
        finally:
            again.stop()
    finally:
        relay.stop()
    assert model.counts() == {str(e.event_id): 1 for e in first + second}
    # It went on from the offsets committed (with this cluster's id) by the first runner.
    assert (again.applied, again.skipped) == (10, 0)


def test_consumer_runs_as_a_process_and_stops_on_sigterm(
    store: EventStore, service: str, postgres_url: str, kafka_bootstrap: str
) -> None:
    topic = topic_for(service)
    relay = OutboxRelay(store, service, kafka_bootstrap)
    relay.start()
    name = f"{service}-proc"
    command = [
        sys.executable,
        "-m",
        "libs.bus.consumer",
        "--schema",
        store.schema,
        "--name",
        name,
        "--topic",
        topic,
        "--handler",
        "tests.integration.bus.sample_projection:ignore",
    ]
    env = {**os.environ, "DATABASE_URL": postgres_url, "KAFKA_BOOTSTRAP_SERVERS": kafka_bootstrap}
    process = subprocess.Popen(command, env=env, cwd=PROJECT_ROOT, stderr=subprocess.PIPE)
    try:
        append_events(store, 25, streams=5)
        wait_until(lambda: inbox_count(store, name) == 25, 60, "25 events in the inbox")
    finally:
        relay.stop()
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=30)
    assert process.returncode == 0, stderr.decode()


def test_a_runner_given_types_applies_those_and_writes_nothing_for_the_others(
    store: EventStore, model: CountingModel
) -> None:
    runner = ConsumerRunner(
        store.pool, store.schema, "c-typed", ["unused"], model.handle, "127.0.0.1:1", types={"Wanted"}
    )
    [wanted, other] = store.append(
        "typed-1", Expect.ANY, [NewEvent("Wanted", {"n": 1}), NewEvent("NotWanted", {"n": 2})]
    )

    assert runner.apply(wanted) is True
    assert runner.apply(other) is False
    assert runner.apply(wanted) is False
    assert model.counts() == {str(wanted.event_id): 1}
    assert inbox_count(store, "c-typed") == 1  # no row for the type nobody handles
    assert (runner.applied, runner.skipped, runner.ignored, runner.seen) == (1, 1, 1, 3)


def _record(value: bytes, event_type: str) -> Any:
    from kafka.consumer.fetcher import ConsumerRecord

    fields = dict.fromkeys(ConsumerRecord._fields, 0)
    fields.update(topic="t", key=b"k", value=value, headers=[("type", event_type.encode())])
    return ConsumerRecord(**fields)


def test_a_message_of_a_type_nobody_handles_is_skipped_by_its_header_before_decoding(
    store: EventStore, model: CountingModel
) -> None:
    runner = ConsumerRunner(
        store.pool, store.schema, "c-head", ["unused"], model.handle, "127.0.0.1:1", types={"Wanted"}
    )
    runner._apply_record(_record(b"not even JSON", "CardPlayed"))
    assert (runner.ignored, runner.applied) == (1, 0)
    [wanted] = store.append("typed-2", Expect.ANY, [NewEvent("Wanted", {"n": 1})])
    runner._apply_record(_record(message_value(wanted), "Wanted"))
    assert (runner.ignored, runner.applied) == (1, 1)
    assert model.counts() == {str(wanted.event_id): 1}


def test_what_a_handler_writes_names_the_handled_event_as_its_cause(
    store: EventStore, service: str, kafka_bootstrap: str
) -> None:
    """Every event written while an event is handled, however it is built, has the handled event's id
    as its causation id and the chain's correlation id (the handled event's own when it began it)."""
    chain = uuid.uuid4()
    began, follows = (
        RecordedEvent(uuid.uuid4(), "x-1", 1, 1, "Thing", 1, datetime.now(UTC), correlation, None, {})
        for correlation in (None, chain)
    )

    def write(event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
        store.append(f"out-{event.event_id}", Expect.NO_STREAM, [NewEvent("Written", {})], conn=conn)

    runner = ConsumerRunner(
        store.pool, store.schema, f"{service}-causes", [topic_for(service)], write, kafka_bootstrap
    )
    for handled, correlation in ((began, began.event_id), (follows, chain)):
        assert runner.apply(handled)
        [written] = store.read(f"out-{handled.event_id}")
        assert (written.causation_id, written.correlation_id) == (handled.event_id, correlation)
    outside = store.append("out-none", Expect.NO_STREAM, [NewEvent("Written", {})])[0]
    assert (outside.causation_id, outside.correlation_id) == (None, None)
