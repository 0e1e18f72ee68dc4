"""A match stream stored before the rename (issue 20, point 5): version 1 of the events that name a
player called it ``player``. Such a stream still loads, replays with every stored state hash
matching, and is served and published as version 2 (``player_id``), exactly as the same match
stored in version 2 is; the stored rows are never rewritten (``services/match/upcasting.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from psycopg import sql
from psycopg.types.json import Jsonb

from libs import clock
from libs.eventstore import EventStore, RecordedEvent
from libs.kit import definition
from libs.kit.schemas import catalog_check
from services.match.publication import route
from services.match.root import assemble
from services.match.service import MatchService
from tests.integration.match.play import decks_without_common_cards, play_to_end
from tests.integration.match.test_match_replay_sources import env_of, publish_twice, replays
from tests.unit.test_arcana_command import arcana


def _as_v1(data: dict[str, Any]) -> dict[str, Any]:
    return {("player" if k == "player_id" else k): v for k, v in data.items()}


def _store_as_v1(pool: Any, schema: str, match_id: str) -> int:
    """Rewrite the test's own stream as a version 1 producer stored it; returns the rows changed."""
    table = sql.Identifier(schema, "events")
    with pool.connection() as conn:
        rows = conn.execute(
            sql.SQL("SELECT position, data FROM {} WHERE stream = %s AND data ? 'player_id'").format(table),
            (f"match-{match_id}",),
        ).fetchall()
        for position, data in rows:
            conn.execute(
                sql.SQL("UPDATE {} SET data = %s, schema_version = 1 WHERE position = %s").format(table),
                (Jsonb(_as_v1(data)), position),
            )
    return len(rows)


def _played(make_player: Any, admin: Any, svc: MatchService) -> tuple[Any, Any, str]:
    """A complete match whose stream holds game events, a disconnection and a reconnection."""
    alice, bob = make_player(), make_player()
    match_id = admin([alice, bob], list(decks_without_common_cards()))
    since = clock.now().isoformat()
    svc.system.run(match_id, lambda m: {"type": "disconnect", "player": bob.id, "since": since})
    svc.system.run(match_id, lambda m: {"type": "reconnect", "player": bob.id})
    play_to_end({alice.id: alice, bob.id: bob}, svc, match_id)
    return alice, bob, match_id


def _shapes(events: list[RecordedEvent]) -> list[tuple[str, int, dict[str, Any]]]:
    return [(e.type, e.schema_version, e.data) for e in events]


def _routed(store: EventStore, stored: list[RecordedEvent]) -> list[tuple[str, str, int, dict[str, Any]]]:
    return [(topic, e.type, e.schema_version, e.data) for event in stored for topic, e in route(event, store)]


def test_a_stream_stored_in_version_1_loads_replays_and_is_served_and_published_as_version_2(
    make_player: Any, admin: Any, svc: MatchService, pool: Any, match_schema: str
) -> None:
    alice, bob, match_id = _played(make_player, admin, svc)
    relay_store = EventStore(pool, match_schema)  # the relay's: no upcasters, events as stored
    stored_v2 = relay_store.read(f"match-{match_id}")
    kinds = {e.type for e in stored_v2 if "player_id" in e.data}
    assert {"PlayerDisconnected", "PlayerReconnected", "CardDrawn", "TurnStarted", "CardPlayed"} <= kinds
    assert all(e.schema_version == 2 for e in stored_v2 if e.type in kinds)
    before = {
        "served": [p.get(f"/v1/matches/{match_id}/events?after=0").get_json() for p in (alice, bob)],
        "read": _shapes(svc.matches.read_events(match_id)),
        "routed": _routed(relay_store, stored_v2),
        "state": svc.matches.load(match_id),
    }

    assert _store_as_v1(pool, match_schema, match_id) >= len(kinds)
    stored_v1 = relay_store.read(f"match-{match_id}")
    assert not any("player_id" in e.data for e in stored_v1)
    assert {e.type for e in stored_v1 if "player" in e.data} == kinds
    assert all(e.schema_version == 1 for e in stored_v1 if e.type in kinds)

    fresh = assemble(pool, match_schema)  # no cache: folds the version 1 stream
    assert fresh.matches.verify_replay(match_id) == []
    loaded = fresh.matches.load(match_id)
    assert loaded is not None and before["state"] is not None
    assert (loaded.rules, loaded.version, loaded.disconnected) == (
        before["state"].rules,
        before["state"].version,
        before["state"].disconnected,
    )
    assert _shapes(fresh.matches.read_events(match_id)) == before["read"]
    assert [p.get(f"/v1/matches/{match_id}/events?after=0").get_json() for p in (alice, bob)] == before[
        "served"
    ]
    routed = _routed(relay_store, stored_v1)
    assert routed == before["routed"]
    check = catalog_check(definition("match").events)
    published = [e for event in stored_v1 for _, e in route(event, relay_store)]
    assert [p for t, e in zip([r[0] for r in routed], published, strict=True) if (p := check(t, e))] == []
    assert relay_store.read(f"match-{match_id}") == stored_v1  # read, never rewritten


def test_the_replay_tool_reads_a_version_1_stream_from_the_database_an_export_and_the_topic(
    make_player: Any,
    admin: Any,
    svc: MatchService,
    pool: Any,
    postgres_url: str,
    match_schema: str,
    kafka_bootstrap: str,
    tmp_path: Path,
) -> None:
    _alice, bob, match_id = _played(make_player, admin, svc)
    _store_as_v1(pool, match_schema, match_id)
    stored = EventStore(pool, match_schema).read(f"match-{match_id}")
    topic = f"records-{match_schema}"
    publish_twice(kafka_bootstrap, topic, stored)  # as a relay before the rename published it
    env = env_of(postgres_url, match_schema, kafka_bootstrap)
    export = tmp_path / "match.jsonl"
    assert arcana("export", "--service", "match", "--output", str(export), env=env).returncode == 0
    exported = export.read_text()
    assert match_id in exported and '"player":' not in exported  # the export upcasts

    runs = replays(match_id, bob.id, (match_schema, export, topic), env)
    for source, done in runs.items():
        assert done.returncode == 0, (source, done.stderr)
        assert f"{len(stored)} events replayed; every stored state hash matches" in done.stdout, source
        assert '"player":' not in done.stdout and '"player_id":' in done.stdout, source
    assert runs["export"].stdout == runs["database"].stdout == runs["topic"].stdout
