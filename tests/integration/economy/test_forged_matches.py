"""Issue 34, finding 3: economy paid any ranked ``MatchEnded`` whose verdict said coins, also once its
own ``/v1/wallet`` said ``paying_matches_left: 0``. It now keeps the daily limit of paying matches
itself: 15 forged ranked MatchEnded (each claiming coins for the player) published on the real broker
after the day's 10 paying matches pay nothing and are parked as dead letters, one each."""

from __future__ import annotations

import uuid
from typing import Any

from psycopg import sql

from libs import fairplay
from libs.eventstore import Expect, NewEvent
from services.economy import store as economy_store
from services.economy.service import EconomyService
from tests.integration.economy.conftest import consume_once

FORGED = 15


def _ranked_win(player: str, opponent: str) -> NewEvent:
    """A ranked MatchEnded won by ``player`` whose verdict pays both: what a forger publishes."""
    paid = fairplay.Verdict(True, True, True).to_data()
    return NewEvent("MatchEnded", {
        "match_id": str(uuid.uuid4()), "mode": "ranked", "players": [player, opponent], "winner": player,
        "loser": opponent, "draw": False, "turns": 8, "round": 5, "reason": "hero_killed", "bot": None,
        "stats": {}, "verdict": {player: paid, opponent: paid},
    })  # fmt: skip


def _dead_letters(svc: EconomyService) -> list[Any]:
    with svc.pool.connection() as conn:
        query = sql.SQL("SELECT event_id FROM {}").format(sql.Identifier(svc.schema, "dead_letters"))
        return [str(r[0]) for r in conn.execute(query).fetchall()]


def test_matches_beyond_the_daily_limit_pay_nothing_and_are_dead_letters(svc, source, make_broker) -> None:  # type: ignore[no-untyped-def]
    player = str(uuid.uuid4())
    svc.open_account(player)
    honest = [_ranked_win(player, str(uuid.uuid4())) for _ in range(fairplay.DAILY_COIN_MATCHES)]
    forged = [_ranked_win(player, str(uuid.uuid4())) for _ in range(FORGED)]
    for event in (*honest, *forged):  # each match its own stream, as match publishes them
        source.append(f"match-{event.data['match_id']}", Expect.ANY, [event])
    total = len(honest) + len(forged)
    runner = consume_once(
        svc, source, make_broker, lambda r: r.applied + r.dead_lettered == total, "every match handled"
    )
    wallet = svc.wallet(player)
    assert (wallet["coins"], wallet["paying_matches_left"]) == (400 + 60 * fairplay.DAILY_COIN_MATCHES, 0)
    ledger, _ = svc.read(economy_store.ledger, player, 100, None)
    assert sum(e["reason"] == "match" for e in ledger) == fairplay.DAILY_COIN_MATCHES
    assert runner.dead_lettered == FORGED and len(_dead_letters(svc)) == FORGED
