"""The 30-day streak calendar consumed from a real broker by the consumer process as it runs in
production (``python -m libs.kit.consume progression``): killed with SIGKILL halfway and started
again, then the broker replaced by a new empty one. Every visited day is kept once and paid once;
the rewards sum to the calendar table's."""

from __future__ import annotations

import datetime as dt
import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

from kafka import KafkaAdminClient
from kafka.admin import NewTopic
from psycopg import sql
from psycopg_pool import ConnectionPool

from libs.bus import OutboxRelay
from libs.bus.topics import lifecycle_topic_for
from libs.config import PROJECT_ROOT
from libs.db import migrate
from libs.eventstore import EventStore, Expect, NewEvent
from tests.integration.bus.helpers import wait_until
from tests.integration.progression.conftest import events_of
from tests.unit.progression.test_streak_calendar import CALENDAR, START, TOTAL_COINS, TOTAL_PACKS


def _consumer(postgres_url: str, bootstrap: str, schema: str, log: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": postgres_url,
        "KAFKA_BOOTSTRAP_SERVERS": bootstrap,
        "ARCANA_PROGRESSION_SCHEMA": schema,
        "ARCANA_TOKEN_SECRET": "consumer-test-" + "c" * 40,
        "PYTHONPATH": str(PROJECT_ROOT),
    }
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "libs.kit.consume", "progression"],
            cwd=PROJECT_ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def _match_relay_topic(bootstrap: str) -> None:
    """The other topic progression reads, as match's relay creates it: the consumer starts reading
    once every topic it reads exists."""
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        admin.create_topics([NewTopic(lifecycle_topic_for("match"), 4, 1)])
    finally:
        admin.close()


def _log_ins(accounts: EventStore, player: str, days: list[int]) -> None:
    """Two log-ins on each day of November in ``days`` (the second keeps nothing more)."""
    for day_of_month in days:
        day = START.replace(day=day_of_month)
        for hour in (8, 20):
            at = dt.datetime(day.year, day.month, day.day, hour, tzinfo=dt.UTC)
            event = NewEvent("PlayerLoggedIn", {"player_id": player, "username": "ada"}, occurred_at=at)
            accounts.append(f"player-{player}", Expect.ANY, [event])


def _kept(pool: ConnectionPool, schema: str, player: str) -> dict[str, tuple[int, bool, int, int]]:
    query = sql.SQL(
        "SELECT day, streak_day, forgiven, coins, packs FROM {} WHERE player_id = %s ORDER BY day"
    ).format(sql.Identifier(schema, "streak_days"))
    with pool.connection() as conn:
        return {r[0].isoformat(): (r[1], r[2], r[3], r[4]) for r in conn.execute(query, (player,))}


def test_the_calendar_through_a_killed_consumer_and_a_new_broker(
    postgres_url: str, pool: ConnectionPool, progression_schema: str, make_broker: Any, tmp_path: Path
) -> None:
    accounts_schema = f"{progression_schema}_acc"
    migrate(postgres_url, accounts_schema)
    accounts = EventStore(pool, accounts_schema)
    player = str(uuid.uuid4())
    visited = [row[0] for row in CALENDAR if row[1]]
    expected = {
        START.replace(day=d).isoformat(): (cycle_day, forgiven, coins, packs)
        for d, seen, cycle_day, forgiven, coins, packs in CALENDAR
        if seen
    }
    broker = make_broker.start()
    _match_relay_topic(broker.bootstrap)
    relay = OutboxRelay(accounts, "accounts", broker.bootstrap, backoff_max=1.0)
    log = tmp_path / "consumer.log"
    _log_ins(accounts, player, [d for d in visited if d <= 15])
    relay.start()
    consumer = _consumer(postgres_url, broker.bootstrap, progression_schema, log)
    try:
        wait_until(lambda: len(_kept(pool, progression_schema, player)) >= 5, 90, "five days kept")
        consumer.send_signal(signal.SIGKILL)
        consumer.wait(10)
        _log_ins(accounts, player, [d for d in visited if d > 15])
        consumer = _consumer(postgres_url, broker.bootstrap, progression_schema, log)
        wait_until(lambda: len(_kept(pool, progression_schema, player)) == len(visited), 90, "every day kept")
        assert _kept(pool, progression_schema, player) == expected

        # A new, empty broker at the same address: everything is published and read again.
        broker.stop()
        new_broker = make_broker.start(broker.port)
        assert new_broker.cluster_id != broker.cluster_id
        _match_relay_topic(new_broker.bootstrap)
        at = dt.datetime(2026, 12, 1, 9, tzinfo=dt.UTC)  # the day after the 30th: cycle day 4
        event = NewEvent("PlayerLoggedIn", {"player_id": player, "username": "ada"}, occurred_at=at)
        accounts.append(f"player-{player}", Expect.ANY, [event])
        wait_until(lambda: "2026-12-01" in _kept(pool, progression_schema, player), 120, "the new day kept")
    finally:
        relay.stop()
        consumer.send_signal(signal.SIGTERM)
        try:
            consumer.wait(20)
        except subprocess.TimeoutExpired:
            consumer.kill()

    expected["2026-12-01"] = (4, False, 60, 0)
    assert _kept(pool, progression_schema, player) == expected, log.read_text()[-3000:]
    rewards = [d for _, d in events_of(pool, progression_schema, ("RewardGranted",))]
    assert len(rewards) == len({r["reward_id"] for r in rewards}) == len(visited) + 1
    assert sum(r["coins"] for r in rewards) == TOTAL_COINS + 60
    assert sum(r["packs"] for r in rewards) == TOTAL_PACKS
    assert {r["source"]["day"]: r["source"]["streak_day"] for r in rewards} == {
        day: row[0] for day, row in expected.items()
    }
