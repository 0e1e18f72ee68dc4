"""A RewardGranted above what its rule can pay is parked as a dead letter at once and never paid
(through the real relay, broker and economy's consumer); rewards within the rules are paid."""

from __future__ import annotations

import uuid
from typing import Any

from psycopg import sql

from libs.eventstore import Expect, NewEvent
from services.economy import store as economy_store
from services.economy.service import EconomyService
from tests.integration.economy.conftest import consume_once, quest_completed, streak_kept


def _reward(player: str, reward_id: str, reason: str, coins: int, packs: int = 0) -> NewEvent:
    data = {"reward_id": reward_id, "player_id": player, "coins": coins, "packs": packs, "reason": reason}
    return NewEvent("RewardGranted", {**data, "source": {"day": "2026-12-01"}})


def _dead_letters(svc: EconomyService) -> list[tuple[Any, ...]]:
    with svc.pool.connection() as conn:
        query = sql.SQL("SELECT event_id, attempts FROM {} ORDER BY event_id")
        return conn.execute(query.format(sql.Identifier(svc.schema, "dead_letters"))).fetchall()


def test_rewards_above_their_rule_are_dead_letters_and_never_paid(svc, source, make_broker) -> None:  # type: ignore[no-untyped-def]
    player, other = str(uuid.uuid4()), str(uuid.uuid4())
    svc.open_account(player)
    honest = [  # each after the fact it pays for, as progression appends them
        quest_completed(player, "2026-12-01", "q_hard_1", 45),
        _reward(player, f"quest:{player}:2026-12-01:q_hard_1", "quest", 45),
        streak_kept(player, "2026-12-01", 7, 0, packs=1),
        _reward(player, f"streak:{player}:2026-12-01", "streak", 0, packs=1),
    ]
    forged = [
        _reward(player, f"quest:{player}:2026-12-01:q_x", "quest", 100_000),  # a mint
        _reward(player, f"streak:{player}:2026-12-02", "streak", 0, packs=50),
        _reward(player, f"streak:{other}:2026-12-01", "streak", 30),  # another player's reward id
    ]
    source.append(f"rewards-{player}", Expect.ANY, [*honest, *forged])
    consume_once(
        svc, source, make_broker, lambda r: r.applied == 4 and r.dead_lettered == 3, "every reward handled"
    )
    wallet = svc.read(economy_store.wallet, player)
    assert (wallet["coins"], wallet["free_packs"]) == (400 + 45, 1)
    parked = _dead_letters(svc)
    assert sorted(str(e) for e, _ in parked) == sorted(str(e.event_id) for e in forged)
    assert all(attempts == 1 for _, attempts in parked)  # parked at once, not retried


def test_an_operator_grant_above_the_ceiling_is_refused(client, counts, pool, economy_schema) -> None:  # type: ignore[no-untyped-def]
    """The configured ceiling (ARCANA_GRANT_MAX_*, 10,000 coins by default) is in the API document,
    and the service refuses anything above its own ceiling whatever calls it."""
    import pytest

    from services.economy.domain import AboveCeiling
    from services.economy.domain.bounds import Ceiling
    from services.economy.domain.credits import PlayerCredit
    from services.economy.domain.wallet import Credit
    from tests.integration.economy.conftest import OPERATOR

    me = client()
    before = counts()
    r = me.http.post(
        "/v1/admin/grants",
        json={"player_id": me.id, "coins": 10_001, "reason": "too generous"},
        headers={"Authorization": f"Bearer {OPERATOR}"},
    )
    assert r.status_code == 422 and r.get_json()["error"]["code"] == "validation_error", r.get_json()
    assert counts() == before
    ok = me.http.post(
        "/v1/admin/grants",
        json={"player_id": me.id, "coins": 10_000, "reason": "support ticket"},
        headers={"Authorization": f"Bearer {OPERATOR}"},
    )
    assert ok.status_code == 201, ok.get_json()
    strict = EconomyService(pool, economy_schema, Ceiling(coins=100, dust=100, free_packs=1))
    before = counts()
    with pytest.raises(AboveCeiling) as refused:
        strict.grant(PlayerCredit(me.id, Credit("grant:big", "grant", coins=101, free_packs=2)))
    assert len(refused.value.details["problems"]) == 2
    assert counts() == before
