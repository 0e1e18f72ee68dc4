from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from psycopg import sql
from psycopg_pool import ConnectionPool

from libs.config import Settings
from libs.db import migrate
from libs.web import create_app
from tests.integration.conftest import row_counter, settings_for_tests
from tests.integration.web import sample_api

SECRET = "test-secret-" + "s" * 60


@pytest.fixture
def settings(postgres_url: str) -> Settings:
    return settings_for_tests(postgres_url, token_secret=SECRET, max_body_bytes=2048)


@pytest.fixture
def web_schema(postgres_url: str, pool: ConnectionPool, schema_name: str) -> str:
    migrate(postgres_url, schema_name)
    with pool.connection() as conn:
        conn.execute(sql.SQL(sample_api.SETUP_SQL).format(sql.Identifier(schema_name)))
    return schema_name


@pytest.fixture
def make_app(settings: Settings, pool: ConnectionPool, web_schema: str) -> Callable[..., Flask]:
    def make(**overrides: Any) -> Flask:
        return create_app(
            "things", [sample_api.blp], schema=web_schema, settings=replace(settings, **overrides), pool=pool
        )

    return make


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    return make_app()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def counts(pool: ConnectionPool, web_schema: str) -> Callable[[], dict[str, int]]:
    """Rows in the tables a request may write: things, events, idempotency."""

    return row_counter(pool, web_schema, ("things", "events", "idempotency"))
