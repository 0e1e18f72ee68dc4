from __future__ import annotations

import uuid

import pytest
from psycopg_pool import ConnectionPool

from tests.integration.bus.helpers import CountingModel


@pytest.fixture
def service() -> str:
    """A service name of its own per test, so each test has its own topic."""
    return f"svc{uuid.uuid4().hex[:10]}"


@pytest.fixture
def model(pool: ConnectionPool, store) -> CountingModel:  # type: ignore[no-untyped-def]
    return CountingModel(pool, store.schema)
