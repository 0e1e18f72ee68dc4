"""Credits from other services' events through the real relay and broker, paid once each: events
delivered three times, a consumer restarted with its inbox lost, a broker replaced by an empty one."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from psycopg import sql

from libs.bus import OutboxRelay, topic_for
from libs.eventstore import EventStore, Expect, NewEvent
from libs.kit import definition
from libs.kit.consume import subscription_runner
from services.economy import store as economy_store
from services.economy.service import EconomyService
from tests.integration.bus.helpers import wait_until
from tests.integration.economy.conftest import streak_kept

DAY = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def _publish_world(source: EventStore, a: str, b: str) -> int:
    """Registrations, log-ins, matches and rewards of two players; returns how many events."""
    match_id = str(uuid.uuid4())
    ended = {
        **{"match_id": match_id, "players": [a, b], "winner": a, "loser": b, "draw": False, "turns": 7},
        **{"reason": "hero_killed", "round": 4, "bot": None, "stats": {}},
    }
    appends: list[tuple[str, list[NewEvent]]] = [
        (f"player-{a}", [NewEvent("PlayerRegistered", {"player_id": a, "username": "ada"})]),
        (f"player-{b}", [NewEvent("PlayerRegistered", {"player_id": b, "username": "bob"})]),
        (f"session-{a}", [NewEvent("PlayerLoggedIn", {"player_id": a, "username": "ada"}, occurred_at=DAY)]),
        (
            f"session-{a}-2",
            [
                NewEvent(
                    "PlayerLoggedIn", {"player_id": a, "username": "ada"}, occurred_at=DAY.replace(hour=22)
                )
            ],
        ),
        (f"match-{match_id}", [NewEvent("MatchEnded", {**ended, "mode": "casual"})]),
        (f"match-p{match_id}", [NewEvent("MatchEnded", {**ended, "match_id": "p", "mode": "practice"})]),
        (
            f"rewards-{b}",
            [
                streak_kept(b, "2026-11-30", 7, 0, packs=1),  # what the reward pays for, just before it
                NewEvent(
                    "RewardGranted",
                    {
                        "reward_id": f"streak:{b}:2026-11-30",
                        "player_id": b,
                        "coins": 0,
                        "packs": 1,
                        "reason": "streak",
                        "source": {"streak_day": 7, "day": "2026-11-30"},
                    },
                ),
                NewEvent(  # the same reward published again under another event id
                    "RewardGranted",
                    {
                        "reward_id": f"streak:{b}:2026-11-30",
                        "player_id": b,
                        "coins": 0,
                        "packs": 1,
                        "reason": "streak",
                        "source": {"streak_day": 7, "day": "2026-11-30"},
                    },
                ),
            ],
        ),
    ]
    for stream, events in appends:
        source.append(stream, Expect.ANY, events)
    return sum(len(e) for _, e in appends)


def _balances(svc: EconomyService, players: list[str]) -> list[Any]:
    return [svc.read(economy_store.wallet, p) for p in players]


def _inbox(svc: EconomyService) -> int:
    with svc.pool.connection() as conn:
        row = conn.execute(sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(svc.schema, "inbox")))
        return int(row.fetchone()[0])  # type: ignore[index]


def _republish(relay: OutboxRelay, source: EventStore) -> None:
    relay.stop()
    with source.pool.connection() as conn:
        conn.execute(
            sql.SQL("UPDATE {} SET position = 0").format(sql.Identifier(source.schema, "relay_progress"))
        )
    relay.start()


def test_every_source_is_paid_once_whatever_the_deliveries(svc, source, make_broker) -> None:  # type: ignore[no-untyped-def]
    a, b = str(uuid.uuid4()), str(uuid.uuid4())
    total = _publish_world(source, a, b)
    broker = make_broker.start()
    service = f"src{uuid.uuid4().hex[:8]}"
    relay = OutboxRelay(source, service, broker.bootstrap, backoff_max=1.0)
    (subscription, _sessions) = definition("economy").subscriptions  # and the kit's

    def consumer(name: str) -> Any:
        return subscription_runner(
            subscription, svc, svc.pool, svc.schema, broker.bootstrap, topics=[topic_for(service)], name=name
        )

    runner = consumer("economy-credits")
    relay.start()
    runner.start()
    try:
        wait_until(lambda: _inbox(svc) == total, 60, "every event consumed")
        first = _balances(svc, [a, b])
        assert (first[0]["coins"], first[1]["coins"], first[1]["free_packs"]) == (400 + 50 + 60, 400 + 20, 1)

        for delivery in (2, 3):  # the relay publishes everything again, twice
            _republish(relay, source)
            wait_until(lambda n=delivery: runner.skipped >= (n - 1) * total, 60, f"delivery {delivery}")
        assert _balances(svc, [a, b]) == first

        runner.stop()  # a restart that also lost its inbox: the source keys still refuse to pay twice
        with svc.pool.connection() as conn:
            conn.execute(sql.SQL("DELETE FROM {}").format(sql.Identifier(svc.schema, "inbox")))
        runner = consumer("economy-credits-2")
        runner.start()
        wait_until(lambda: _inbox(svc) == total, 60, "everything consumed again by the new consumer")
        assert _balances(svc, [a, b]) == first

        broker.stop()  # a new, empty broker: the relay publishes everything to it again
        new_broker = make_broker.start(broker.port)
        wait_until(lambda: runner.cluster_id == new_broker.cluster_id, 60, "the consumer saw the new broker")
        wait_until(lambda: runner.skipped >= total, 90, "everything redelivered by the new broker")
        assert _balances(svc, [a, b]) == first
    finally:
        relay.stop()
        runner.stop()
    ledger, _ = svc.read(economy_store.ledger, a, 100, None)
    assert sorted((e["reason"], e["amount"]) for e in ledger) == [
        ("daily_login", 50),
        ("match", 60),
        ("starter", 400),
    ]
