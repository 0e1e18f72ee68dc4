"""Acceptance: kill the relay with SIGKILL between publish and recording progress —
duplicates are delivered to Kafka and ignored by the consumer."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections import Counter

from libs.bus import ConsumerRunner, OutboxRelay, topic_for
from libs.config import PROJECT_ROOT
from libs.eventstore import EventStore
from tests.integration.bus.helpers import CountingModel, RawReader, append_events, wait_until


def relay_command(service: str, schema: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "libs.kit.relay",
        "--service",
        service,
        "--schema",
        schema,
        "--batch-size",
        "100",
    ]


def relay_env(postgres_url: str, kafka_bootstrap: str, fault: str | None = None) -> dict[str, str]:
    env = {**os.environ, "DATABASE_URL": postgres_url, "KAFKA_BOOTSTRAP_SERVERS": kafka_bootstrap}
    env.pop("ARCANA_FAULT", None)
    if fault:
        env["ARCANA_FAULT"] = fault
    return env


def test_sigkill_between_publish_and_progress_gives_duplicates_that_are_ignored(
    store: EventStore, model: CountingModel, service: str, postgres_url: str, kafka_bootstrap: str
) -> None:
    events = append_events(store, 150, streams=5)
    topic = topic_for(service)
    probe_relay = OutboxRelay(store, service, kafka_bootstrap)  # only to read the progress

    killed = subprocess.run(
        relay_command(service, store.schema),
        env=relay_env(postgres_url, kafka_bootstrap, "kill_after_publish"),
        cwd=PROJECT_ROOT,
        capture_output=True,
        timeout=60,
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr.decode()
    assert probe_relay.progress()[0] == 0  # the first batch was published but not recorded

    reader = RawReader(kafka_bootstrap, topic)
    relay = subprocess.Popen(
        relay_command(service, store.schema),
        env=relay_env(postgres_url, kafka_bootstrap),
        cwd=PROJECT_ROOT,
        stderr=subprocess.PIPE,
    )
    runner = ConsumerRunner(store.pool, store.schema, f"{service}-c", [topic], model.handle, kafka_bootstrap)
    runner.start()
    try:
        messages = reader.read_at_least(250, timeout=30)  # 100 before the kill + 150 after
        wait_until(lambda: runner.applied + runner.skipped >= 250, 60, "250 messages consumed")
        wait_until(lambda: probe_relay.progress()[0] == events[-1].position, 10, "progress recorded")
    finally:
        runner.stop()
        relay.send_signal(signal.SIGTERM)
        _, stderr = relay.communicate(timeout=30)
        reader.close()
    assert relay.returncode == 0, stderr.decode()  # SIGTERM stops it cleanly

    seen = Counter(m.event["event_id"] for m in messages)
    assert set(seen) == {str(e.event_id) for e in events}
    assert sum(1 for n in seen.values() if n == 2) == 100  # the first batch, delivered twice
    assert model.counts() == {str(e.event_id): 1 for e in events}
    assert runner.applied == 150
    assert runner.skipped >= 100
