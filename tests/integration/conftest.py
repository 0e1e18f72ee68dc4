from __future__ import annotations

from collections.abc import Iterator

import pytest
from psycopg_pool import ConnectionPool

from libs.db import make_pool, migrate
from libs.eventstore import EventStore


@pytest.fixture
def pool(postgres_url: str) -> Iterator[ConnectionPool]:
    p = make_pool(postgres_url, min_size=1, max_size=25)
    yield p
    p.close()


@pytest.fixture
def store(postgres_url: str, pool: ConnectionPool, schema_name: str) -> EventStore:
    migrate(postgres_url, schema_name)
    return EventStore(pool, schema_name)
