"""PlayerLoggedIn: appended to the player's stream with every successful log-in, in the log-in's
transaction, and published on ``arcana.accounts.events`` by the relay (economy and progression
consume it)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from psycopg_pool import ConnectionPool

from libs.bus import OutboxRelay, topic_for
from libs.eventstore import EventStore, NewEvent
from services.accounts.root import SERVICE
from tests.integration.accounts.conftest import PASSWORD
from tests.integration.bus.helpers import RawReader, wait_until


def test_each_log_in_appends_player_logged_in_and_a_failure_appends_nothing(
    pool: ConnectionPool, accounts_schema: str, register: Callable[..., Any], login: Callable[..., Any]
) -> None:
    player_id = register("rupert")["player_id"]
    assert login("rupert", "not the password").status_code == 401
    assert login("RUPERT").status_code == 201
    assert login("rupert").status_code == 201

    events = EventStore(pool, accounts_schema).read(f"player-{player_id}")
    assert [e.type for e in events] == ["PlayerRegistered", "PlayerLoggedIn", "PlayerLoggedIn"]
    assert [e.version for e in events] == [1, 2, 3]
    for event in events[1:]:
        assert event.data == {"player_id": player_id}  # never the username (issue 34)


def test_player_logged_in_is_published_on_the_accounts_topic(
    pool: ConnectionPool,
    accounts_schema: str,
    kafka_bootstrap: str,
    register: Callable[..., Any],
    login: Callable[..., Any],
) -> None:
    player_id = register("sybil")["player_id"]
    assert login("sybil", PASSWORD).status_code == 201
    stream = f"player-{uuid.UUID(player_id)}"
    relay = OutboxRelay(EventStore(pool, accounts_schema), "accounts", kafka_bootstrap, poll_interval=0.02)
    relay.start()
    reader = RawReader(kafka_bootstrap, topic_for("accounts"))
    try:
        wait_until(
            lambda: (
                [m.event["type"] for m in reader.poll() if m.key == stream]
                == ["PlayerRegistered", "PlayerLoggedIn"]
            ),
            30,
            "the player's two events on arcana.accounts.events",
        )
    finally:
        relay.stop()
        reader.close()
    [published] = [m for m in reader.messages if m.key == stream and m.event["type"] == "PlayerLoggedIn"]
    assert published.event["data"] == {"player_id": player_id}  # never the username (issue 34)
    assert topic_for("accounts") == "arcana.accounts.events"


def test_events_stored_with_a_username_are_published_without_it(
    pool: ConnectionPool, accounts_schema: str, kafka_bootstrap: str
) -> None:
    """Issue 34, point 6: version 1 events, stored before the username left them, go on the topic
    (which can never be erased) in their current shape, also when the relay publishes again."""
    player = str(uuid.uuid4())
    stream, older = f"player-{player}", {"player_id": player, "username": "legacy_name"}
    store = EventStore(pool, accounts_schema)
    store.append(stream, 0, [NewEvent("PlayerRegistered", older), NewEvent("PlayerLoggedIn", older)])
    relay = OutboxRelay(
        store, "accounts", kafka_bootstrap, poll_interval=0.02, publication=SERVICE.publication
    )
    relay.start()
    reader = RawReader(kafka_bootstrap, topic_for("accounts"))
    try:
        wait_until(lambda: len([m for m in reader.poll() if m.key == stream]) == 2, 30, "the two events")
    finally:
        relay.stop()
        reader.close()
    published = [m.event for m in reader.messages if m.key == stream]
    assert [(e["type"], e["schema_version"], e["data"]) for e in published] == [
        ("PlayerRegistered", 2, {"player_id": player}),
        ("PlayerLoggedIn", 2, {"player_id": player}),
    ]
