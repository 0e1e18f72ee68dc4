from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from psycopg_pool import ConnectionPool

from libs import clock
from libs.config import Settings
from libs.db import migrate
from libs.kit.web import service_app
from services.accounts.passwords import ScryptParams
from services.accounts.service import AccountsConfig, LoginPolicy
from tests.integration.conftest import row_counter, settings_for_tests

SECRET = "accounts-test-secret-" + "a" * 60
MIGRATIONS = Path(__file__).resolve().parents[3] / "services" / "accounts" / "migrations"
FAST_SCRYPT = ScryptParams(n=2**10, r=8, p=1)
PASSWORD = "correct horse battery"


@pytest.fixture(autouse=True)
def _real_clock() -> Iterator[None]:
    """Tests move time with ``libs.clock``; each starts and ends on the real clock."""
    clock.set_offset(0)
    yield
    clock.set_offset(0)


@pytest.fixture
def settings(postgres_url: str) -> Settings:
    return settings_for_tests(postgres_url, token_secret=SECRET, token_ttl_seconds=900, max_body_bytes=4096)


@pytest.fixture
def accounts_schema(postgres_url: str, schema_name: str) -> str:
    migrate(postgres_url, schema_name, [MIGRATIONS])
    return schema_name


@pytest.fixture
def policy() -> LoginPolicy:
    return LoginPolicy(per_username=5, per_address=20, window_seconds=60, register_per_address=30)


@pytest.fixture
def app(settings: Settings, pool: ConnectionPool, accounts_schema: str, policy: LoginPolicy) -> Flask:
    return service_app(
        "accounts", settings, pool, schema=accounts_schema, config=AccountsConfig(FAST_SCRYPT, policy)
    )


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def counts(pool: ConnectionPool, accounts_schema: str) -> Callable[[], dict[str, int]]:
    """Rows of what registration writes: players, events, idempotency records."""

    return row_counter(pool, accounts_schema, ("players", "events", "idempotency"))


@pytest.fixture
def register(client: FlaskClient) -> Callable[..., Any]:
    def do(username: str, password: str = PASSWORD, **kwargs: Any) -> Any:
        resp = client.post("/v1/accounts", json={"username": username, "password": password}, **kwargs)
        assert resp.status_code == 201, resp.get_json()
        return resp.get_json()

    return do


@pytest.fixture
def login(client: FlaskClient) -> Callable[..., Any]:
    def do(username: str, password: str = PASSWORD, address: str = "10.0.0.1") -> Any:
        return client.post(
            "/v1/sessions",
            json={"username": username, "password": password},
            environ_base={"REMOTE_ADDR": address},
        )

    return do
