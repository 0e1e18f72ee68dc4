"""Upcasting on read, snapshots and migrations."""

from __future__ import annotations

from libs.db import migrate
from libs.eventstore import EventStore, Expect, NewEvent, Upcasters


def test_upcasters_chain_on_read_and_never_rewrite_storage(store: EventStore, pool) -> None:
    store.append("m", Expect.NO_STREAM, [NewEvent("CardPlayed", {"card": "wolf"}, schema_version=1)])
    upcasters = Upcasters()

    @upcasters.register("CardPlayed", 1)
    def _v1_to_v2(data: dict) -> dict:
        return {**data, "position": 0}

    @upcasters.register("CardPlayed", 2)
    def _v2_to_v3(data: dict) -> dict:
        return {"card_id": data["card"], "position": data["position"]}

    evolved = EventStore(pool, store.schema, upcasters)
    [event] = evolved.read("m")
    assert event.schema_version == 3
    assert event.data == {"card_id": "wolf", "position": 0}
    [raw] = store.read("m")
    assert raw.schema_version == 1 and raw.data == {"card": "wolf"}
    assert evolved.read_all(0)[0].data == event.data


def test_snapshot_keeps_the_newest(store: EventStore) -> None:
    assert store.load_snapshot("m") is None
    store.save_snapshot("m", 10, {"hp": 20})
    store.save_snapshot("m", 5, {"hp": 29})
    assert store.load_snapshot("m") == (10, {"hp": 20})
    store.save_snapshot("m", 12, {"hp": 18})
    assert store.load_snapshot("m") == (12, {"hp": 18})


def test_migrations_are_safe_to_run_twice(postgres_url: str, schema_name: str) -> None:
    first = migrate(postgres_url, schema_name)
    assert "eventstore/001_events.sql" in first
    assert migrate(postgres_url, schema_name) == []
