"""Fixtures of the matchmaking tests: a migrated schema and the service on the real PostgreSQL."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from psycopg_pool import ConnectionPool

from libs import clock
from libs.config import PROJECT_ROOT
from libs.db import migrate
from libs.eventstore import RecordedEvent
from services.matchmaking.service import MatchmakingService

MIGRATIONS = PROJECT_ROOT / "services" / "matchmaking" / "migrations"


@pytest.fixture
def mm_schema(postgres_url: str, schema_name: str) -> str:
    migrate(postgres_url, schema_name, [MIGRATIONS])
    return schema_name


@pytest.fixture
def mm(pool: ConnectionPool, mm_schema: str) -> MatchmakingService:
    return MatchmakingService(pool, mm_schema)


@pytest.fixture(autouse=True)
def _real_clock() -> Iterator[None]:
    clock.set_offset(0)
    yield
    clock.set_offset(0)


def foreign_event(
    kind: str, data: dict[str, Any], stream: str = "x", version: int = 1, position: int = 1
) -> RecordedEvent:
    """An event of another service as the consumer receives it."""
    return RecordedEvent(uuid.uuid4(), stream, version, position, kind, 1, clock.now(), None, None, data)


@pytest.fixture
def deliver(mm: MatchmakingService) -> Callable[[RecordedEvent], None]:
    """Apply an event of another service in its own transaction, as the consumer does."""

    def run(event: RecordedEvent) -> None:
        with mm.pool.connection() as conn, conn.transaction():
            mm.handle(event, conn)

    return run


def requested(mm: MatchmakingService) -> list[dict[str, Any]]:
    """Every MatchRequested stored (the outbox), oldest first."""
    return [e.data for e in mm.events.iter_all() if e.type == "MatchRequested"]
