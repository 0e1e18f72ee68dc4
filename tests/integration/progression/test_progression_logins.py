"""Real log-ins through the accounts service, relayed to the real broker, keep the streak: the first
log-in of a UTC day pays that day's reward once, later log-ins of the day pay nothing, and the days
come from the clock the accounts service stamps its events with."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from psycopg_pool import ConnectionPool

from libs import clock
from libs.bus import OutboxRelay, topic_for
from libs.config import PROJECT_ROOT
from libs.db import migrate
from libs.eventstore import EventStore
from libs.kit import definition
from libs.kit.consume import subscription_runner
from libs.kit.web import service_app
from services.accounts.passwords import ScryptParams
from services.accounts.service import AccountsConfig, LoginPolicy
from services.progression.service import ProgressionService
from tests.integration.bus.helpers import wait_until
from tests.integration.conftest import settings_for_tests
from tests.integration.progression.conftest import events_of, move_clock_to

PASSWORD = "correct horse battery"
MIGRATIONS = PROJECT_ROOT / "services" / "accounts" / "migrations"


def test_log_ins_through_accounts_keep_the_streak_once_a_day(
    postgres_url: str,
    pool: ConnectionPool,
    progression_schema: str,
    progression: ProgressionService,
    kafka_bootstrap: str,
    make_client: Any,
) -> None:
    accounts_schema = f"{progression_schema}_acc"
    migrate(postgres_url, accounts_schema, [MIGRATIONS])
    config = AccountsConfig(ScryptParams(n=2**10, r=8, p=1), LoginPolicy(per_username=50, per_address=100))
    settings = settings_for_tests(postgres_url, token_secret="accounts-" + "s" * 60)
    accounts = service_app("accounts", settings, pool, schema=accounts_schema, config=config).test_client()
    username = f"ada_{uuid.uuid4().hex[:8]}"
    created = accounts.post("/v1/accounts", json={"username": username, "password": PASSWORD})
    assert created.status_code == 201, created.get_json()
    player = created.get_json()["player_id"]

    topic_service = f"acc{uuid.uuid4().hex[:10]}"
    relay = OutboxRelay(EventStore(pool, accounts_schema), topic_service, kafka_bootstrap)
    [sub, _sessions] = definition("progression").subscriptions  # and the kit's
    runner = subscription_runner(
        sub,
        progression,
        pool,
        progression.schema,
        kafka_bootstrap,
        topics=[topic_for(topic_service)],
        name=topic_service,
    )
    first_day = clock.now().date() + dt.timedelta(days=1)
    plan = [first_day, first_day, first_day + dt.timedelta(days=1), first_day + dt.timedelta(days=3)]
    relay.start()
    runner.start()
    try:
        for day in plan:
            move_clock_to(day, hour=10)
            r = accounts.post("/v1/sessions", json={"username": username, "password": PASSWORD})
            assert r.status_code == 201, r.get_json()
        # PlayerRegistered (no handler here: ignored) + 4 PlayerLoggedIn
        wait_until(lambda: runner.seen >= 5, 90, "the account's events consumed")
    finally:
        relay.stop()
        runner.stop()

    kept = [d for _, d in events_of(pool, progression.schema, ("StreakDayKept",))]
    # day 1, day 2, then one missed day forgiven: day 3 (forgiveness next available 7 days later)
    assert [(k["day"], k["streak_day"], k["forgiven"], k["coins"]) for k in kept] == [
        (first_day.isoformat(), 1, False, 30),
        ((first_day + dt.timedelta(days=1)).isoformat(), 2, False, 40),
        ((first_day + dt.timedelta(days=3)).isoformat(), 3, True, 50),
    ]
    rewards = [d for _, d in events_of(pool, progression.schema, ("RewardGranted",))]
    assert [r["reward_id"] for r in rewards] == [f"streak:{player}:{k['day']}" for k in kept]
    view = make_client(player).get("/v1/streak").get_json()
    assert (view["streak_day"], view["kept_today"]) == (3, True)
    assert view["forgiveness"] == {
        "available": False,
        "next_available_on": (first_day + dt.timedelta(days=10)).isoformat(),
        "cooldown_days": 7,
    }
