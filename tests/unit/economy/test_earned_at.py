"""A credit says when it was earned (the fact that earned it) besides when it was recorded (the
envelope's ``occurred_at``), and names its player (issue 20, point 5)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from libs.contracts import RewardGranted
from services.economy.domain.credits import daily_login, reward_credit
from services.economy.domain.wallet import Credit, OpenWallet, decide_credit, decide_open_wallet

EARNED = datetime(2026, 11, 30, 23, 50, tzinfo=UTC)
NOW = EARNED + timedelta(hours=3)  # recorded later (a consumer that caught up)


def test_a_credit_is_earned_at_its_fact_s_time_in_utc_not_when_it_is_recorded() -> None:
    tokyo = EARNED.astimezone(timezone(timedelta(hours=9)))
    granted = RewardGranted("quest:p:2026-11-30:q", "p", 20, 0, "quest", {"quest_id": "q"})
    for paid in (daily_login("p", tokyo), reward_credit(granted, EARNED)):
        assert paid is not None
        (event,) = decide_credit(None, paid.credit, player_id="p", now=NOW)
        assert (event.player_id, event.earned_at) == ("p", "2026-11-30T23:50:00+00:00")


def test_a_grant_is_earned_when_it_is_recorded_and_the_starter_coins_at_registration() -> None:
    (grant,) = decide_credit(None, Credit("grant:g", "grant", coins=5), player_id="p", now=NOW)
    assert grant.earned_at == NOW.isoformat()
    _, starter = decide_open_wallet(None, OpenWallet("p", "00" * 32, registered_at=EARNED), now=NOW)
    assert (starter.player_id, starter.earned_at) == ("p", EARNED.isoformat())
