"""Issue 34, finding 3: economy paid any ``RewardGranted`` within its rule's bounds whose id had the
right prefix (10 forged in-bound rewards: +725 coins, 5 packs). A reward is now paid only when it
names a fact economy consumed before it (``QuestCompleted``, ``StreakDayKept``) and pays exactly what
that fact earned; 10 forged rewards published on the real broker are 10 dead letters, nothing paid."""

from __future__ import annotations

import uuid
from typing import Any

from psycopg import sql

from libs.eventstore import Expect, NewEvent
from services.economy.service import EconomyService
from tests.integration.economy.conftest import consume_once, quest_completed, streak_kept

DAY = "2026-12-01"


def _reward(player: str, reward_id: str, coins: int, packs: int = 0) -> NewEvent:
    reason = reward_id.split(":", 1)[0]
    data = {"reward_id": reward_id, "player_id": player, "coins": coins, "packs": packs, "reason": reason}
    return NewEvent("RewardGranted", {**data, "source": {"day": DAY}})


def _dead_letters(svc: EconomyService) -> set[str]:
    with svc.pool.connection() as conn:
        query = sql.SQL("SELECT event_id FROM {}").format(sql.Identifier(svc.schema, "dead_letters"))
        return {str(r[0]) for r in conn.execute(query).fetchall()}


def _forged(player: str) -> list[NewEvent]:
    """Ten rewards within their rules' bounds, of this player's id shape, that no fact earned as paid."""
    never_completed = [_reward(player, f"quest:{player}:{DAY}:q_hard_{i}", 45) for i in range(4)]
    never_kept = [_reward(player, f"streak:{player}:2026-11-{d}", 100) for d in (27, 28)]
    packs = [_reward(player, f"streak:{player}:2026-11-{d}", 0, packs=1) for d in (25, 26)]
    more_than_earned = [
        _reward(player, f"quest:{player}:{DAY}:q_easy_1", 45),  # its QuestCompleted paid 20
        _reward(player, f"streak:{player}:{DAY}", 0, packs=1),  # its StreakDayKept paid 30 coins
    ]
    return [*never_completed, *never_kept, *packs, *more_than_earned]


def test_rewards_no_consumed_fact_earned_are_dead_letters_and_never_paid(
    svc: EconomyService, source: Any, make_broker: Any
) -> None:
    player = str(uuid.uuid4())
    svc.open_account(player)
    forged = _forged(player)
    source.append(f"quests-{player}-{DAY}", Expect.ANY, [quest_completed(player, DAY, "q_easy_1", 20)])
    source.append(f"streak-{player}", Expect.ANY, [streak_kept(player, DAY, 1, 30)])
    honest = _reward(player, f"quest:{player}:{DAY}:q_easy_2", 20)
    source.append(
        f"quests-{player}-{DAY}", Expect.ANY, [quest_completed(player, DAY, "q_easy_2", 20), honest]
    )
    for event in forged:
        source.append(f"forged-{uuid.uuid4()}", Expect.ANY, [event])
    runner = consume_once(
        svc, source, make_broker, lambda r: r.applied + r.dead_lettered == 4 + len(forged), "all handled"
    )
    wallet = svc.wallet(player)
    assert (wallet["coins"], wallet["free_packs"]) == (400 + 20, 0)  # the honest quest only
    assert runner.dead_lettered == len(forged) == 10
    assert _dead_letters(svc) == {str(e.event_id) for e in forged}
