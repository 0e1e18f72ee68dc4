"""`arcana replay` reads a match from the database, a JSON Lines export or the records topic, and the
three give the same replay with every state hash checked (issue 20, point 3)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from kafka import KafkaProducer

from libs.bus.topics import message_headers, message_key, message_value
from libs.eventstore import EventStore
from services.match.service import MatchService
from tests.integration.match.play import decks_without_common_cards, play_to_end
from tests.unit.test_arcana_command import arcana


def publish_twice(bootstrap: str, topic: str, events: list[Any]) -> None:
    """The match's record as the relay publishes it, twice over (republishing is normal)."""
    producer = KafkaProducer(bootstrap_servers=bootstrap)
    try:
        for _ in range(2):
            for event in events:
                producer.send(
                    topic, message_value(event), key=message_key(event), headers=message_headers(event)
                )
        producer.flush(30)
    finally:
        producer.close()


def env_of(postgres_url: str, match_schema: str, kafka_bootstrap: str) -> dict[str, str]:
    """The environment of an ``arcana`` run on the test's database and broker."""
    return {
        **os.environ,
        "DATABASE_URL": postgres_url,
        "ARCANA_MATCH_SCHEMA": match_schema,
        "KAFKA_BOOTSTRAP_SERVERS": kafka_bootstrap,
    }


def replays(
    match_id: str, viewer: str, sources: tuple[str, Path, str], env: dict[str, str]
) -> dict[str, Any]:
    """``arcana replay`` of ``match_id`` as ``viewer`` from each source (schema, export, topic)."""
    schema, export, topic = sources
    return {
        "database": arcana("replay", match_id, "--schema", schema, "--as", viewer, env=env),
        "export": arcana("replay", match_id, "--export", str(export), "--as", viewer, env=env),
        "topic": arcana("replay", match_id, "--topic", topic, "--as", viewer, env=env),
    }


def test_database_export_and_topic_give_the_same_replay(
    make_player: Any,
    admin: Any,
    svc: MatchService,
    pool: Any,
    postgres_url: str,
    match_schema: str,
    kafka_bootstrap: str,
    tmp_path: Path,
) -> None:
    alice, bob = make_player(), make_player()
    other = admin([make_player(), make_player()], list(decks_without_common_cards()))  # noise in the sources
    match_id = admin([alice, bob], list(decks_without_common_cards()))
    play_to_end({alice.id: alice, bob.id: bob}, svc, match_id)
    stored = EventStore(pool, match_schema).read(f"match-{match_id}")
    topic = f"records-{match_schema}"
    publish_twice(kafka_bootstrap, topic, EventStore(pool, match_schema).read(f"match-{other}") + stored)

    env = env_of(postgres_url, match_schema, kafka_bootstrap)
    export = tmp_path / "match.jsonl"
    assert arcana("export", "--service", "match", "--output", str(export), env=env).returncode == 0

    runs = replays(match_id, bob.id, (match_schema, export, topic), env)
    for source, done in runs.items():
        assert done.returncode == 0, (source, done.stderr)
        assert f"{len(stored)} events replayed; every stored state hash matches" in done.stdout, source
    assert runs["export"].stdout == runs["database"].stdout
    assert runs["topic"].stdout == runs["database"].stdout
    assert "--- turn 1" in runs["database"].stdout

    # a tampered export drifts, and the replay says so
    tampered = tmp_path / "tampered.jsonl"
    lines = export.read_text().splitlines(keepends=True)
    (n, line) = next(
        (n, line) for n, line in enumerate(lines) if match_id in line and '"state_hash":"' in line
    )
    lines[n] = line.replace('"state_hash":"', '"state_hash":"0', 1)
    tampered.write_text("".join(lines))
    drift = arcana("replay", match_id, "--export", str(tampered), env=env)
    assert drift.returncode == 1 and "DRIFT" in drift.stderr
