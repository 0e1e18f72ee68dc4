"""Match rewards of the new games through the real relay, broker and economy's consumer: a line
MatchEnded pays the winner's shards once though delivered twice (the wallet and ledger show them),
and a 3-player arena MatchEnded pays 60 / 20 / 20 coins."""

from __future__ import annotations

import uuid
from typing import Any

from psycopg import sql

from libs.bus import OutboxRelay, topic_for
from libs.eventstore import Expect, NewEvent
from libs.kit import definition
from libs.kit.consume import subscription_runner
from services.economy import store as economy_store
from services.economy.service import EconomyService
from tests.integration.bus.helpers import wait_until

PAYS = {"coins": True, "xp": True, "rating": False, "reasons": {}, "message": None}
UNPAID = {"coins": False, "xp": False, "rating": False, "reasons": {}, "message": None}


def _ended(game: str, players: list[str], verdict: dict[str, Any], **over: Any) -> NewEvent:
    return NewEvent("MatchEnded", {
        "match_id": str(uuid.uuid4()), "game": game, "mode": "casual", "players": players,
        "winner": players[0], "loser": players[1] if len(players) == 2 else None, "draw": False,
        "turns": 2, "round": 2, "reason": "line_fell", "bot": None, "stats": {},
        "placements": [[p] for p in players], "verdict": verdict, **over,
    })  # fmt: skip


def _inbox(svc: EconomyService) -> int:
    with svc.pool.connection() as conn:
        row = conn.execute(sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(svc.schema, "inbox")))
        return int(row.fetchone()[0])  # type: ignore[index]


def _wallets(svc: EconomyService, players: list[str]) -> list[tuple[int, int]]:
    found = [svc.read(economy_store.wallet, p) for p in players]
    return [(w["coins"], w["shards"]) for w in found]


def test_line_shards_and_arena_coins_are_paid_once_each(svc, source, make_broker, new_player) -> None:  # type: ignore[no-untyped-def]
    a, b, c = new_player(), new_player(), new_player()
    line_win = _ended("line", [a, b], {a: PAYS, b: UNPAID})
    arena = _ended("arena", [c, a, b], {p: PAYS for p in (a, b, c)}, turns=14, reason="last_standing")
    source.append(f"match-{line_win.data['match_id']}", Expect.ANY, [line_win])
    source.append(f"match-{arena.data['match_id']}", Expect.ANY, [arena])
    broker = make_broker.start()
    service = f"src{uuid.uuid4().hex[:8]}"
    relay = OutboxRelay(source, service, broker.bootstrap, backoff_max=1.0)
    (subscription, _sessions) = definition("economy").subscriptions
    runner = subscription_runner(
        subscription,
        svc,
        svc.pool,
        svc.schema,
        broker.bootstrap,
        topics=[topic_for(service)],
        name="economy-credits",
    )
    relay.start()
    runner.start()
    try:
        wait_until(lambda: _inbox(svc) == 2, 60, "both matches consumed")
        first = _wallets(svc, [a, b, c])
        assert first == [(400 + 20, 1500), (400 + 20, 0), (400 + 60, 0)]

        relay.stop()  # the relay publishes everything again: delivered a second time
        with source.pool.connection() as conn:
            conn.execute(
                sql.SQL("UPDATE {} SET position = 0").format(sql.Identifier(source.schema, "relay_progress"))
            )
        relay.start()
        wait_until(lambda: runner.skipped >= 2, 60, "the second delivery")
        assert _wallets(svc, [a, b, c]) == first
    finally:
        relay.stop()
        runner.stop()
    ledger, _ = svc.read(economy_store.ledger, a, 10, None)
    assert sorted((e["currency"], e["amount"], e["balance_after"], e["reason"]) for e in ledger) == [
        ("coins", 20, 420, "match"),
        ("coins", 400, 400, "starter"),
        ("shards", 1500, 1500, "match"),
    ]
    assert svc.wallet(a)["paying_matches_left"] == 10 - 2  # one limit for every game's paying matches
    (shards,) = [e for e in svc.events.read(f"wallet-{a}") if e.type == "ShardsCredited"]
    assert shards.data["player_id"] == a and shards.data["source"] == f"match:{line_win.data['match_id']}:{a}"
    assert shards.data["earned_at"]
