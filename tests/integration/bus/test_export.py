"""The event log exported as JSON Lines gives the stored events back exactly."""

from __future__ import annotations

import json

from libs.eventstore import EventStore, Expect, NewEvent, RecordedEvent
from tests.integration.bus.helpers import append_events
from tests.integration.conftest import run_tool


def export(postgres_url: str, *args: str) -> list[RecordedEvent]:
    done = run_tool(postgres_url, "libs.bus.export", *args)
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
