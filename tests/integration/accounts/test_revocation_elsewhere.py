"""Issue 12, finding 8: a log-out at accounts is honoured by every other service, through the
kit (``libs.kit.sessions``): accounts' ``SessionRevoked`` / ``AllSessionsRevoked`` travel on the
real broker to the other service's ``<name>-sessions`` consumer, which records them in its
schema's shared tables, and that service's app then refuses the tokens (401)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from psycopg import sql
from psycopg_pool import ConnectionPool

from libs.bus import OutboxRelay
from libs.config import PROJECT_ROOT, Settings
from libs.db import migrate
from libs.eventstore import EventStore, NewEvent
from libs.kit.consume import handler_for, subscription_runner
from libs.kit.registry import definition
from libs.kit.sessions import consumer_name
from libs.kit.web import service_app
from libs.maintenance.policy import PurgePolicy, purge_schema
from libs.web.auth import TokenClaims
from libs.web.sessions import RevocationCache, record_revoked_token, record_token_version
from services.economy.service import EconomyService
from tests.integration.bus.helpers import wait_until
from tests.integration.web.shape import assert_error

ECONOMY_MIGRATIONS = PROJECT_ROOT / "services" / "economy" / "migrations"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def economy_schema(postgres_url: str, schema_name: str) -> str:
    schema = f"{schema_name}_eco"
    migrate(postgres_url, schema, [ECONOMY_MIGRATIONS])
    return schema


@pytest.fixture
def economy(settings: Settings, pool: ConnectionPool, economy_schema: str) -> FlaskClient:
    """Economy's app, as the kit builds it, sharing accounts' token secret; its revocation cache
    does not keep answers (ttl 0), so the test sees the table as soon as the event is consumed."""
    sessions = RevocationCache.shared(lambda: pool, economy_schema, ttl_seconds=0)
    return service_app("economy", settings, pool, schema=economy_schema, sessions=sessions).test_client()


@pytest.fixture
def pipeline(
    pool: ConnectionPool, accounts_schema: str, economy_schema: str, kafka_bootstrap: str
) -> Iterator[Any]:
    """Accounts' relay to ``arcana.accounts.events`` and economy's kit consumer of it (a group of
    its own per test: the topic is shared by the session's tests)."""
    relay = OutboxRelay(EventStore(pool, accounts_schema), "accounts", kafka_bootstrap, poll_interval=0.02)
    sub = next(s for s in definition("economy").subscriptions if s.name == consumer_name("economy"))
    runner = subscription_runner(
        sub, None, pool, economy_schema, kafka_bootstrap, name=f"economy-sessions-{uuid.uuid4().hex[:8]}"
    )
    relay.start()
    runner.start()
    try:
        yield runner
    finally:
        relay.stop()
        runner.stop()


def _token(login: Callable[..., Any], username: str) -> str:
    resp = login(username)
    assert resp.status_code == 201
    token: str = resp.get_json()["token"]
    return token


def test_a_log_out_at_accounts_is_refused_by_economy_once_consumed(
    client: FlaskClient,
    economy: FlaskClient,
    pool: ConnectionPool,
    economy_schema: str,
    pipeline: Any,
    register: Callable[..., Any],
    login: Callable[..., Any],
) -> None:
    player_id = register("ursula")["player_id"]
    EconomyService(pool, economy_schema).open_account(player_id)
    phone, laptop = _token(login, "ursula"), _token(login, "ursula")
    assert economy.get("/v1/wallet", headers=bearer(phone)).status_code == 200

    assert client.delete("/v1/sessions/current", headers=bearer(phone)).status_code == 204
    wait_until(
        lambda: economy.get("/v1/wallet", headers=bearer(phone)).status_code == 401,
        60,
        "economy refusing the logged-out token",
    )
    assert_error(economy.get("/v1/wallet", headers=bearer(phone)), 401, "unauthorized")
    assert economy.get("/v1/wallet", headers=bearer(laptop)).status_code == 200  # the other session

    assert client.delete("/v1/sessions", headers=bearer(laptop)).status_code == 204  # everywhere
    wait_until(
        lambda: economy.get("/v1/wallet", headers=bearer(laptop)).status_code == 401,
        60,
        "economy refusing every earlier token",
    )
    assert_error(economy.get("/v1/wallet", headers=bearer(phone)), 401, "unauthorized")
    fresh = _token(login, "ursula")
    assert economy.get("/v1/wallet", headers=bearer(fresh)).status_code == 200


def test_every_service_app_but_accounts_checks_the_shared_tables(
    app: Flask, settings: Settings, pool: ConnectionPool, economy_schema: str
) -> None:
    accounts_check = app.extensions["arcana"].sessions
    assert isinstance(accounts_check, RevocationCache)
    economy_app = service_app("economy", settings, pool, schema=economy_schema)
    economy_check = economy_app.extensions["arcana"].sessions
    assert isinstance(economy_check, RevocationCache) and economy_check is not accounts_check
    player = uuid.uuid4()
    claims = TokenClaims(player, "t1", 1, datetime.now(UTC) + timedelta(hours=1))
    assert not economy_check.is_revoked(claims)  # nobody logged out: the tables are empty
    with pool.connection() as conn:
        record_revoked_token(conn, economy_schema, player, "t1", claims.expires_at)
    economy_check.forget(player)
    assert economy_check.is_revoked(claims)
    assert not economy_check.is_revoked(TokenClaims(player, "t2", 1, claims.expires_at))
    with pool.connection() as conn:
        record_token_version(conn, economy_schema, player, 2)
    economy_check.forget(player)
    assert economy_check.is_revoked(TokenClaims(player, "t2", 1, claims.expires_at))
    assert not economy_check.is_revoked(TokenClaims(player, "t3", 2, claims.expires_at))


def test_the_kit_consumer_is_idempotent_and_expired_revocations_are_purged(
    pool: ConnectionPool, economy_schema: str, store: EventStore
) -> None:
    sub = next(s for s in definition("economy").subscriptions if s.name == consumer_name("economy"))
    handle = handler_for(sub, None, economy_schema)
    player = uuid.uuid4()
    now = datetime.now(UTC)
    stream = f"player-{player}"
    store.append(
        stream,
        0,
        [
            NewEvent(
                "SessionRevoked",
                {
                    "player_id": str(player),
                    "token_id": "old",
                    "expires_at": (now - timedelta(minutes=1)).isoformat(),
                },
            ),
            NewEvent(
                "SessionRevoked",
                {
                    "player_id": str(player),
                    "token_id": "live",
                    "expires_at": (now + timedelta(hours=1)).isoformat(),
                },
            ),
            NewEvent("AllSessionsRevoked", {"player_id": str(player), "token_version": 3}),
            NewEvent("AllSessionsRevoked", {"player_id": str(player), "token_version": 2}),  # late: ignored
        ],
    )
    events = store.read(stream)
    with pool.connection() as conn:
        for event in [*events, *events]:  # redelivered: no effect
            handle(event, conn)

    def rows(table: str) -> list[tuple[Any, ...]]:
        with pool.connection() as conn:
            query = sql.SQL("SELECT * FROM {} ORDER BY 1").format(sql.Identifier(economy_schema, table))
            return [tuple(r) for r in conn.execute(query).fetchall()]

    assert [r[0] for r in rows("token_revocations")] == ["live", "old"]
    assert [(r[0], r[1]) for r in rows("token_versions")] == [(player, 3)]
    report = purge_schema(pool, economy_schema, PurgePolicy(), now)
    assert report.revoked_tokens == 1
    assert [r[0] for r in rows("token_revocations")] == ["live"]
