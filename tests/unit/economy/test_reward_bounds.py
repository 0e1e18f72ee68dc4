"""Rewards are bounded by the rule that produced them (docs/rules.md, "Fair play"), and a log-in's day is
its UTC day whatever time zone its timestamp was read in."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from libs.contracts import RewardGranted
from services.economy.domain.bounds import RULE_CEILINGS, Ceiling, reward_problems
from services.economy.domain.credits import daily_login, reward_credit
from services.economy.domain.wallet import Credit
from services.progression.domain.catalog import QUEST_REWARDS
from services.progression.domain.streak import CYCLE_DAYS, cycle_reward


def _reward(
    player: str, reason: str, coins: int, packs: int = 0, reward_id: str | None = None
) -> RewardGranted:
    rid = reward_id or f"{reason}:{player}:2026-12-01" + (":q_easy_1" if reason == "quest" else "")
    return RewardGranted(rid, player, coins, packs, reason, {"day": "2026-12-01"})


def test_the_ceilings_are_the_largest_rewards_progression_can_grant() -> None:
    assert RULE_CEILINGS["quest"] == Ceiling(coins=max(coins for coins, _ in QUEST_REWARDS.values()))
    streak = [cycle_reward(day) for day in range(1, CYCLE_DAYS + 1)]
    assert RULE_CEILINGS["streak"] == Ceiling(
        coins=max(c for c, _ in streak), free_packs=max(p for _, p in streak)
    )


def test_every_reward_progression_grants_is_payable() -> None:
    for coins, _xp in QUEST_REWARDS.values():
        paid = reward_credit(_reward("p", "quest", coins))
        assert paid is not None and reward_problems("p", "quest:p:2026-12-01:q", paid.credit) == []
    for day in range(1, CYCLE_DAYS + 1):
        coins, packs = cycle_reward(day)
        paid = reward_credit(_reward("p", "streak", coins, packs))
        assert paid is not None and reward_problems("p", "streak:p:2026-12-01", paid.credit) == []


def test_a_reward_above_its_rule_or_not_of_its_form_is_refused() -> None:
    for data in (
        _reward("p", "quest", 46),
        _reward("p", "quest", 20, packs=1),
        _reward("p", "streak", 101),
        _reward("p", "streak", 0, packs=2),
        _reward("p", "streak", 30, reward_id="streak:someone-else:2026-12-01"),
        _reward("p", "quest", 20, reward_id="streak:p:2026-12-01:q"),
    ):
        paid = reward_credit(data)
        assert paid is not None
        assert reward_problems("p", data.reward_id, paid.credit), data
    assert reward_problems("p", "grant:p:x", Credit("grant:x", "grant", coins=1))  # no rule's reward


def test_a_grant_ceiling_names_every_amount_above_it() -> None:
    ceiling = Ceiling(coins=100, dust=50, free_packs=1)
    assert ceiling.problems(Credit("g", "grant", coins=100, dust=50, free_packs=1)) == []
    assert len(ceiling.problems(Credit("g", "grant", coins=101, dust=51, free_packs=2))) == 3


def test_the_daily_log_in_day_is_the_utc_day() -> None:
    new_york = timezone(timedelta(hours=-5))
    late_evening = datetime(2026, 1, 2, 21, 30, tzinfo=new_york)  # 2026-01-03 02:30 UTC
    assert daily_login("p", late_evening).credit.source == "login:p:2026-01-03"
    tokyo = timezone(timedelta(hours=9))
    early_morning = datetime(2026, 1, 3, 7, 0, tzinfo=tokyo)  # 2026-01-02 22:00 UTC
    assert daily_login("p", early_morning).credit.source == "login:p:2026-01-02"
