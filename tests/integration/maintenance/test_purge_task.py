"""One purge task for every service: old idempotency keys and old inbox rows go, in each service's
schema; the worker's beat runs it once for all."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta

import pytest
from psycopg import sql
from psycopg_pool import ConnectionPool

from libs.bus import inbox
from libs.bus.purge import horizons
from libs.config import Settings
from libs.db import migrate
from libs.db.migrate_all import service_folders
from libs.eventstore import RecordedEvent
from libs.kit import definition, service_names
from libs.kit.runtime import Runtime, provided
from libs.maintenance import tasks
from libs.maintenance.policy import PurgePolicy
from tests.integration.conftest import settings_for_tests


@pytest.fixture
def schemas(postgres_url: str, pool: ConnectionPool, schema_name: str) -> Iterator[dict[str, str]]:
    """Every service's runtime on a fresh schema of its own, as the worker would build it."""
    settings: Settings = settings_for_tests(postgres_url)
    found = {name: f"{schema_name}_{name}" for name in service_names()}
    folders = service_folders()
    with ExitStack() as stack:
        for name, schema in found.items():
            migrate(postgres_url, schema, folders[name])
            runtime = Runtime(definition(name), schema, settings, pool)
            service = definition(name).build(runtime) if definition(name).purge_closed else object()
            stack.enter_context(provided(name, service, runtime))
        yield found


def event_at(occurred_at: datetime, n: int) -> RecordedEvent:
    raw = {
        "event_id": f"00000000-0000-4000-8000-{n:012d}",
        "stream": f"s-{n}",
        "version": 1,
        "position": n,
        "type": "ThingHappened",
        "schema_version": 1,
        "occurred_at": occurred_at.isoformat(),
        "correlation_id": None,
        "causation_id": None,
        "data": {},
    }
    return RecordedEvent.from_dict(raw)


def seed(pool: ConnectionPool, schema: str, now: datetime) -> None:
    """Two idempotency keys (2 days and 1 hour old) and two inbox rows (40 and 5 days old)."""
    with pool.connection() as conn:
        for key, age in (("old", timedelta(days=2)), ("fresh", timedelta(hours=1))):
            conn.execute(
                sql.SQL(
                    "INSERT INTO {} (scope, key, fingerprint, created_at) "
                    "VALUES ('anonymous', %s, 'f', now() - %s)"
                ).format(sql.Identifier(schema, "idempotency")),
                (key, age),
            )
        inbox.register(conn, schema, "consumer-a")
        inbox.claim(conn, schema, "consumer-a", event_at(now - timedelta(days=40), 1))
        inbox.claim(conn, schema, "consumer-a", event_at(now - timedelta(days=5), 2))


def rows(pool: ConnectionPool, schema: str, table: str, column: str) -> list[str]:
    query = sql.SQL("SELECT {} FROM {} ORDER BY 1").format(
        sql.Identifier(column), sql.Identifier(schema, table)
    )
    with pool.connection() as conn:
        return [str(r[0]) for r in conn.execute(query).fetchall()]


def test_the_purge_task_applies_the_policy_to_every_service(
    pool: ConnectionPool, schemas: dict[str, str]
) -> None:
    now = datetime.now(UTC)
    for schema in schemas.values():
        seed(pool, schema, now)

    assert tasks.purge.run() == 2 * len(schemas)

    for schema in schemas.values():
        assert rows(pool, schema, "idempotency", "key") == ["fresh"]
        assert rows(pool, schema, "inbox", "event_id") == ["00000000-0000-4000-8000-000000000002"]
        horizon = horizons(pool, schema)["consumer-a"]
        assert horizon is not None and now - timedelta(days=31) < horizon < now - timedelta(days=29)


def test_a_failing_service_does_not_stop_the_others(pool: ConnectionPool, schemas: dict[str, str]) -> None:
    now = datetime.now(UTC)
    for schema in schemas.values():
        seed(pool, schema, now)
    names = ["no-such-service", *schemas]
    reports = tasks.purge_services(names, PurgePolicy())
    assert [r.schema for r in reports] == list(schemas.values())
    assert all(r.idempotency == 1 and r.inbox == {"consumer-a": 1} for r in reports)


def test_the_worker_schedules_the_shared_purge_once_and_no_service_its_own() -> None:
    from services.worker import app

    entries = app.conf.beat_schedule
    assert [e["task"] for e in entries.values()].count(tasks.PURGE_TASK) == 1
    own = ("purge_idempotency", "purge_inbox")  # accounts' purge of log-in counters is another matter
    assert not any(e["task"].endswith(own) for name, e in entries.items() if name != "maintenance-purge")
    assert tasks.PURGE_TASK in app.tasks


def test_the_policy_reads_its_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    assert PurgePolicy.from_env() == PurgePolicy(timedelta(days=1), timedelta(days=30))
    monkeypatch.setenv("ARCANA_INBOX_HORIZON_DAYS", "90")
    monkeypatch.setenv("ARCANA_IDEMPOTENCY_KEEP_HOURS", "6")
    assert PurgePolicy.from_env() == PurgePolicy(timedelta(hours=6), timedelta(days=90))
    monkeypatch.setenv("ARCANA_INBOX_HORIZON_DAYS", "0")
    with pytest.raises(ValueError, match="ARCANA_INBOX_HORIZON_DAYS"):
        PurgePolicy.from_env()


def _ticket(pool: ConnectionPool, schema: str, ticket: str, status: str, age: timedelta) -> None:
    with pool.connection() as conn:
        conn.execute(
            sql.SQL(
                "INSERT INTO {} (ticket_id, player_id, mode, rating, deck, status, opened_at, version) "
                "VALUES (%s, %s, 'casual', 900, '{{}}', %s, now() - %s, 1)"
            ).format(sql.Identifier(schema, "tickets")),
            (ticket, f"player-{ticket}", status, age),
        )
        conn.execute(
            sql.SQL("INSERT INTO {} (ticket_id, last_polled_at) VALUES (%s, now() - %s)").format(
                sql.Identifier(schema, "ticket_polls")
            ),
            (ticket, age),
        )


def test_closed_tickets_and_old_rate_counters_go_by_the_shared_policy(
    pool: ConnectionPool, schemas: dict[str, str]
) -> None:
    """Issue 17, finding 9: closed queue tickets are purged from matchmaking's read models a day
    after they closed (open ones never), and per-player rate counters once their window is long over."""
    mm = schemas["matchmaking"]
    for ticket, status, age in (
        ("old-cancelled", "cancelled", timedelta(days=2)),
        ("old-matched", "matched", timedelta(days=2)),
        ("old-failed", "failed", timedelta(days=3)),
        ("new-matched", "matched", timedelta(hours=1)),
        ("old-waiting", "waiting", timedelta(days=2)),
    ):
        _ticket(pool, mm, ticket, status, age)
    economy = schemas["economy"]
    with pool.connection() as conn:
        for subject, age in (("old", timedelta(days=2)), ("fresh", timedelta(minutes=1))):
            conn.execute(
                sql.SQL("INSERT INTO {} VALUES ('deck_write', %s, now() - %s, 3)").format(
                    sql.Identifier(economy, "rate_limits")
                ),
                (subject, age),
            )
    assert tasks.purge.run() == 3 + 1
    assert rows(pool, mm, "tickets", "ticket_id") == ["new-matched", "old-waiting"]
    assert rows(pool, mm, "ticket_polls", "ticket_id") == ["old-waiting"]
    assert rows(pool, economy, "rate_limits", "subject") == ["fresh"]
