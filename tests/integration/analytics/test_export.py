"""`arcana export`: the logs of several services merged in time order, filtered, as JSON Lines only
(the file the README's command makes is valid JSON Lines) or Parquet (issue 20, point 2)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from libs.db import migrate
from libs.eventstore import EventStore, NewEvent, RecordedEvent
from tests.unit.test_arcana_command import arcana

T0 = datetime(2026, 11, 30, 22, 0, tzinfo=UTC)


@pytest.fixture
def two_services(postgres_url: str, pool: Any, schema_name: str) -> dict[str, EventStore]:
    """The event stores of `economy` and `match` in fresh schemas, with interleaved events."""
    stores = {}
    for service in ("economy", "match"):
        schema = f"{schema_name}_{service[:3]}"
        migrate(postgres_url, schema)
        stores[service] = EventStore(pool, schema)
    for minute in range(6):  # economy at even minutes, match at odd ones; two streams each
        service = "economy" if minute % 2 == 0 else "match"
        stream = f"{service}-{minute % 4 // 2}"
        stores[service].append(
            stream,
            stores[service].version(stream),
            [NewEvent(f"Thing{minute % 3}", {"n": minute}, occurred_at=T0 + timedelta(minutes=minute))],
        )
    return stores


def env_for(postgres_url: str, stores: dict[str, EventStore]) -> dict[str, str]:
    env = {**os.environ, "DATABASE_URL": postgres_url}
    for service, store in stores.items():
        env[f"ARCANA_{service.upper()}_SCHEMA"] = store.schema
    return env


def lines(done: subprocess.CompletedProcess[str]) -> list[dict[str, Any]]:
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_every_service_merged_in_time_order_with_the_service_named(
    postgres_url: str, two_services: dict[str, EventStore]
) -> None:
    env = env_for(postgres_url, two_services)
    exported = lines(arcana("export", "--service", "economy", "--service", "match", env=env))
    assert [e["data"]["n"] for e in exported] == list(range(6))
    assert [e["service"] for e in exported] == ["economy", "match"] * 3
    for event in exported:
        assert event["occurred_at"].endswith("+00:00")  # UTC, whatever the session's time zone
        stored = two_services[event["service"]].read(event["stream"])
        assert RecordedEvent.from_dict(event) in stored


def test_filters_by_time_type_stream_and_end_position(
    postgres_url: str, two_services: dict[str, EventStore]
) -> None:
    env = env_for(postgres_url, two_services)
    both = ("--service", "economy", "--service", "match")
    window = lines(
        arcana("export", *both, "--since", "2026-11-30T22:01:00Z", "--until", "2026-11-30T22:04Z", env=env)
    )
    assert [e["data"]["n"] for e in window] == [1, 2, 3]
    typed = lines(arcana("export", *both, "--type", "Thing0", "--type", "Thing2", env=env))
    assert [e["data"]["n"] for e in typed] == [0, 2, 3, 5]
    streamed = lines(arcana("export", "--service", "economy", "--stream", "economy-1", env=env))
    assert [e["data"]["n"] for e in streamed] == [2]
    upto = lines(arcana("export", "--service", "match", "--to-position", "2", env=env))
    assert [e["position"] for e in upto] == [1, 2]
    refused = arcana("export", *both, "--to-position", "2", env=env)
    assert refused.returncode == 2 and "positions are per service" in refused.stderr


def test_the_readme_command_writes_a_file_of_json_lines_only(
    postgres_url: str, two_services: dict[str, EventStore], tmp_path: Path
) -> None:
    env = env_for(postgres_url, two_services)
    env["PATH"] = f"{Path(sys.executable).parent}:{env['PATH']}"  # the virtualenv's `arcana`
    done = subprocess.run(
        "arcana export --service match > match-events.jsonl",
        shell=True,
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    written = (tmp_path / "match-events.jsonl").read_text().splitlines()
    assert len(written) == 3
    assert all(json.loads(line)["service"] == "match" for line in written)
    assert "exported 3 events" in done.stderr  # progress goes to standard error, not into the file


def test_parquet_holds_the_same_events_with_typed_columns(
    postgres_url: str, two_services: dict[str, EventStore], tmp_path: Path
) -> None:
    import duckdb

    env = env_for(postgres_url, two_services)
    as_json = lines(arcana("export", "--service", "economy", "--service", "match", env=env))
    target = tmp_path / "events.parquet"
    done = arcana(
        "export",
        "--service",
        "economy",
        "--service",
        "match",
        "--format",
        "parquet",
        "--output",
        str(target),
        env=env,
    )
    assert done.returncode == 0, done.stderr
    with duckdb.connect() as db:
        db.execute("SET TimeZone = 'UTC'")
        rows = db.execute(
            "SELECT service, CAST(event_id AS VARCHAR), stream, version, position, type, "
            "CAST(occurred_at AS VARCHAR), "
            "CAST(data AS VARCHAR) FROM read_parquet(?) ORDER BY occurred_at",
            [str(target)],
        ).fetchall()
        kinds = dict(
            db.execute(
                "SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(?))", [str(target)]
            ).fetchall()
        )
    assert kinds["occurred_at"] == "TIMESTAMP WITH TIME ZONE" and kinds["version"] == "INTEGER"
    assert [(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[7])) for r in rows] == [
        (e["service"], e["event_id"], e["stream"], e["version"], e["position"], e["type"], e["data"])
        for e in as_json
    ]
    moments = [datetime.fromisoformat(r[6]) for r in rows]
    assert moments == [datetime.fromisoformat(e["occurred_at"]) for e in as_json]


def test_a_time_without_a_zone_is_utc_as_the_help_says(
    postgres_url: str, two_services: dict[str, EventStore]
) -> None:
    """Issue 32, point 5: `--since 2026-11-30T22:01` was refused (a time zone asked for)."""
    env = {**env_for(postgres_url, two_services), "TZ": "America/New_York", "PGTZ": "Asia/Tokyo"}
    both = ("--service", "economy", "--service", "match")
    bare = arcana("export", *both, "--since", "2026-11-30T22:01:00", "--until", "2026-11-30T22:04", env=env)
    zoned = arcana(
        "export", *both, "--since", "2026-11-30T22:01:00Z", "--until", "2026-11-30T22:04Z", env=env
    )
    assert [e["data"]["n"] for e in lines(bare)] == [1, 2, 3]
    assert bare.stdout == zoned.stdout
