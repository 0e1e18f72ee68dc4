"""MatchRequested consumed from the real broker: published by an outbox relay as matchmaking will,
applied once per request id; an illegal deck ends the request with MatchRequestRejected."""

from __future__ import annotations

import uuid
from typing import Any

from psycopg_pool import ConnectionPool

from libs.bus import OutboxRelay, topic_for
from libs.contracts import match_id_for
from libs.db import migrate
from libs.eventstore import EventStore, Expect, NewEvent
from libs.games.arcana import STARTER_DECK
from libs.kit import definition
from libs.kit.consume import subscription_runner
from services.match.service import MatchService
from tests.integration.bus.helpers import wait_until
from tests.integration.match.conftest import registered


def test_match_requests_are_consumed_once_per_request_id(
    postgres_url: str,
    pool: ConnectionPool,
    schema_name: str,
    svc: MatchService,
    kafka_bootstrap: str,
    make_player: Any,
) -> None:
    mm_schema = f"{schema_name}_mm"
    migrate(postgres_url, mm_schema)
    service = f"mm{uuid.uuid4().hex[:10]}"
    mm = EventStore(pool, mm_schema)
    alice, bob = make_player(), make_player()
    registered(svc, alice, bob)  # accounts' PlayerRegistered, as match's consumer applies it
    good, bad = f"req-{uuid.uuid4()}", f"req-{uuid.uuid4()}"
    players = [{"id": alice.id, "deck": list(STARTER_DECK)}, {"id": bob.id, "deck": list(STARTER_DECK)}]
    illegal = [{"id": alice.id, "deck": list(STARTER_DECK)}, {"id": bob.id, "deck": ["no-such-card"] * 20}]
    for request_id, mode, who in (
        (good, "ranked", players),
        (good, "ranked", players),
        (bad, "casual", illegal),
    ):
        data = {"request_id": request_id, "mode": mode, "players": who}
        mm.append(f"ticket-{uuid.uuid4()}", Expect.NO_STREAM, [NewEvent("MatchRequested", data)])
    mm.append("ticket-other", Expect.NO_STREAM, [NewEvent("QueueJoined", {"player_id": alice.id})])
    relay = OutboxRelay(mm, service, kafka_bootstrap)
    (requests,) = [s for s in definition("match").subscriptions if "MatchRequested" in s.handlers]
    runner = subscription_runner(
        requests,
        svc,
        pool,
        svc.schema,
        kafka_bootstrap,
        topics=[topic_for(service)],
        name=f"{service}-requests",
    )
    relay.start()
    runner.start()
    try:
        wait_until(lambda: runner.seen >= 4, 60, "4 events consumed")
    finally:
        relay.stop()
        runner.stop()
    created = svc.matches.read_events(match_id_for(good))
    assert [e.type for e in created[:2]] == ["MatchCreated", "MatchStarted"]
    assert created[0].data["request_id"] == good and created[0].data["mode"] == "ranked"
    assert sum(e.type == "MatchCreated" for e in created) == 1
    assert alice.view(match_id_for(good))["mode"] == "ranked"
    rejected = svc.matches.read_events(match_id_for(bad))
    assert [e.type for e in rejected] == ["MatchRequestRejected"]
    assert rejected[0].data["reason"] == "invalid_deck" and bob.id in rejected[0].data["problems"]
    assert alice.get(f"/v1/matches/{match_id_for(bad)}").status_code == 404
    listed = alice.get("/v1/matches").get_json()["matches"]
    assert [m["match_id"] for m in listed] == [match_id_for(good)]
