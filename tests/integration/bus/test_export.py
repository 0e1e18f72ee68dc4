"""The event log exported as JSON Lines gives the stored events back exactly."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from libs.config import PROJECT_ROOT
from libs.eventstore import EventStore, Expect, NewEvent, RecordedEvent
from tests.integration.bus.helpers import append_events


def export(postgres_url: str, *args: str) -> list[RecordedEvent]:
    done = subprocess.run(
        [sys.executable, "-m", "libs.bus.export", *args],
        env={**os.environ, "DATABASE_URL": postgres_url},
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return [RecordedEvent.from_dict(json.loads(line)) for line in done.stdout.splitlines()]


def test_export_round_trip(store: EventStore, postgres_url: str) -> None:
    append_events(store, 40, streams=3)
    store.append(
        "odd-1",
        Expect.NO_STREAM,
        [NewEvent("Nested", {"a": [1, {"b": None}], "é": "ü"}, correlation_id=None)],
    )
    stored = store.read_all(0, 1000)

    assert export(postgres_url, "--schema", store.schema) == stored
    assert export(postgres_url, "--schema", store.schema, "--stream", "s-1") == store.read("s-1")
    assert export(postgres_url, "--schema", store.schema, "--from-position", "30") == stored[30:]
