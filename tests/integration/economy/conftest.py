"""Fixtures of the economy tests: a migrated schema and the service on the real PostgreSQL."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from psycopg_pool import ConnectionPool

from libs.config import PROJECT_ROOT
from libs.db import migrate
from services.economy.service import EconomyService
from tests.integration.conftest import row_counter

MIGRATIONS = PROJECT_ROOT / "services" / "economy" / "migrations"
WRITTEN = ("events", "pack_seeds", "wallets", "ledger", "collection", "decks", "active_decks", "idempotency")


@pytest.fixture
def economy_schema(postgres_url: str, schema_name: str) -> str:
    migrate(postgres_url, schema_name, [MIGRATIONS])
    return schema_name


@pytest.fixture
def svc(pool: ConnectionPool, economy_schema: str) -> EconomyService:
    return EconomyService(pool, economy_schema)


@pytest.fixture
def new_player(svc: EconomyService) -> Any:
    """A player whose account economy has opened (400 coins, starter collection and deck)."""

    def make() -> str:
        player_id = str(uuid.uuid4())
        svc.open_account(player_id)
        return player_id

    return make


@pytest.fixture
def counts(pool: ConnectionPool, economy_schema: str) -> Any:
    return row_counter(pool, economy_schema, WRITTEN)
