"""Issue 12, finding 8: log-in counters are purged once their window is over (a beat task), and the
dummy hash for unknown usernames is built when the app starts, not on the first log-in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from psycopg import sql
from psycopg_pool import ConnectionPool

from libs import clock
from libs.config import Settings
from libs.kit.web import service_app
from services.accounts import passwords, tasks
from services.accounts.service import AccountsConfig, AccountsService, LoginPolicy
from tests.integration.accounts.conftest import FAST_SCRYPT, PASSWORD
from tests.integration.web.shape import assert_error


def scopes(pool: ConnectionPool, schema: str) -> list[str]:
    with pool.connection() as conn:
        rows = conn.execute(
            sql.SQL("SELECT scope FROM {} ORDER BY scope").format(sql.Identifier(schema, "login_attempts"))
        ).fetchall()
    return [row[0] for row in rows]


def _purge(pool: ConnectionPool, schema: str, policy: LoginPolicy, settings: Settings) -> int:
    return AccountsService(pool, schema, settings, AccountsConfig(FAST_SCRYPT, policy)).purge_expired()


def test_counters_are_purged_after_their_window(
    settings: Settings,
    pool: ConnectionPool,
    accounts_schema: str,
    policy: LoginPolicy,
    register: Callable[..., Any],
    login: Callable[..., Any],
) -> None:
    register("cyrus")
    for _ in range(7):  # over the username limit: a delay row too
        login("cyrus", "wrong password", address="198.51.100.40")
    assert scopes(pool, accounts_schema) == ["ip", "pair", "pair_fail", "register_ip", "username"]
    assert _purge(pool, accounts_schema, policy, settings) == 0  # all still limiting someone
    clock.advance(policy.window_seconds + 1)
    assert _purge(pool, accounts_schema, policy, settings) == 4
    assert scopes(pool, accounts_schema) == ["register_ip"]  # its window is longer
    clock.advance(policy.register_window_seconds)
    assert _purge(pool, accounts_schema, policy, settings) == 1
    assert scopes(pool, accounts_schema) == []


def test_the_purge_runs_on_the_beat_schedule() -> None:
    from services.worker import schedule

    assert schedule["accounts-purge-login-attempts"]["task"] == tasks.PURGE_TASK
    assert tasks.PURGE_TASK in tasks.app.tasks


def test_the_dummy_hash_is_built_at_start_up(
    monkeypatch: pytest.MonkeyPatch, settings: Settings, pool: ConnectionPool, accounts_schema: str
) -> None:
    monkeypatch.setattr(passwords, "_DUMMY", {})
    client = service_app(
        "accounts", settings, pool, schema=accounts_schema, config=AccountsConfig(FAST_SCRYPT, LoginPolicy())
    ).test_client()

    def no_hashing_while_serving(*args: Any) -> str:
        raise AssertionError("a password was hashed while serving a log-in")

    monkeypatch.setattr(passwords, "hash_password", no_hashing_while_serving)
    resp = client.post("/v1/sessions", json={"username": "nobody_at_all", "password": PASSWORD})
    assert_error(resp, 401, "invalid_credentials")
