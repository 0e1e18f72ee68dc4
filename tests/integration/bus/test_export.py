"""A service's event log exported as JSON Lines (``arcana export``, the one export command; the
``make export-events`` target calls it) gives the stored events back exactly."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from libs.config import PROJECT_ROOT
from libs.eventstore import EventStore, Expect, NewEvent, RecordedEvent
from tests.integration.bus.helpers import append_events
from tests.integration.conftest import run_tool

CLI = "services.cli"  # `arcana`, run from this checkout


def _as(store: EventStore) -> dict[str, str]:
    """The store's schema as the match service's (a service without upcasters: exported as stored)."""
    return {"ARCANA_MATCH_SCHEMA": store.schema}


def export(postgres_url: str, store: EventStore, *args: str) -> list[RecordedEvent]:
    done = run_tool(postgres_url, CLI, "export", "--service", "match", "--quiet", *args, env=_as(store))
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

    assert export(postgres_url, store) == stored
    assert export(postgres_url, store, "--stream", "s-1") == store.read("s-1")
    assert export(postgres_url, store, "--from-position", "30") == stored[30:]


def test_export_finds_the_embedded_stack_database_without_database_url(
    store: EventStore, postgres_url: str, tmp_path: Path
) -> None:
    append_events(store, 5, streams=2)
    done = run_tool(
        postgres_url, CLI, "export", "--service", "match", stack_dir=tmp_path / "stack", env=_as(store)
    )
    assert done.returncode == 0, done.stderr
    exported = [RecordedEvent.from_dict(json.loads(line)) for line in done.stdout.splitlines()]
    assert exported == store.read_all(0, 100)


def test_tools_say_what_is_missing_when_there_is_no_database(store: EventStore, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["ARCANA_DATA_DIR"] = str(tmp_path / "nothing-running")
    for module, args in (
        (CLI, ["export", "--service", "match"]),
        (
            "libs.bus.rebuild",
            [
                "--schema",
                store.schema,
                "--projection",
                "tests.integration.bus.sample_projection:stream_totals",
            ],
        ),
        ("services.match.replay", ["some-match"]),
        ("libs.kit.deadletters", ["list", "--service", "match"]),
    ):
        done = subprocess.run(
            [sys.executable, "-m", module, *args],
            env=env,
            cwd=PROJECT_ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode != 0, module
        assert "DATABASE_URL is not set" in done.stderr and "make run" in done.stderr, (module, done.stderr)
