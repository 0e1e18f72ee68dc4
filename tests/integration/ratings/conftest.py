"""Fixtures of the ratings tests: a migrated schema, the service and its app on the real PostgreSQL."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from psycopg_pool import ConnectionPool

from libs import clock
from libs.config import PROJECT_ROOT
from libs.db import migrate
from libs.eventstore import RecordedEvent
from libs.kit.web import service_app
from libs.web import issue_token
from services.ratings.service import RatingsService
from tests.integration.conftest import settings_for_tests

MIGRATIONS = PROJECT_ROOT / "services" / "ratings" / "migrations"
SECRET = "ratings-test-secret-" + "r" * 50


@pytest.fixture
def ratings_schema(postgres_url: str, schema_name: str) -> str:
    migrate(postgres_url, schema_name, [MIGRATIONS])
    return schema_name


@pytest.fixture
def svc(pool: ConnectionPool, ratings_schema: str) -> RatingsService:
    return RatingsService(pool, ratings_schema)


def ended(
    winner: str, loser: str, *, mode: str = "ranked", turns: int = 6, draw: bool = False
) -> dict[str, Any]:
    """A MatchEnded as the match service publishes it."""
    return {
        "winner": "draw" if draw else winner,
        "reason": "draw" if draw else "hero_killed",
        "match_id": str(uuid.uuid4()),
        "mode": mode,
        "players": [winner, loser],
        "loser": None if draw else loser,
        "draw": draw,
        "turns": turns,
        "round": turns // 2,
        "bot": None,
        "stats": {},
    }


def as_event(kind: str, data: dict[str, Any], version: int = 1) -> RecordedEvent:
    return RecordedEvent(uuid.uuid4(), "x", version, 1, kind, 1, clock.now(), None, None, data)


@pytest.fixture
def deliver(svc: RatingsService) -> Callable[..., None]:
    """Apply an event in its own transaction, as the consumer does (the handlers of root.py)."""
    from services.ratings.root import SERVICE

    handlers = {k: v for sub in SERVICE.subscriptions for k, v in sub.handlers.items()}

    def run(kind: str, data: dict[str, Any], version: int = 1) -> None:
        with svc.pool.connection() as conn, conn.transaction():
            handlers[kind](svc, as_event(kind, data, version), conn)

    return run


class Player:
    def __init__(self, app: Any, player_id: str | None = None) -> None:
        self.id = player_id or str(uuid.uuid4())
        self.token = issue_token(SECRET, uuid.UUID(self.id), 3600).token
        self.client = app.test_client()

    def get(self, path: str) -> Any:
        return self.client.get(path, headers={"Authorization": f"Bearer {self.token}"})


@pytest.fixture
def app(postgres_url: str, pool: ConnectionPool, ratings_schema: str) -> Any:
    return service_app(
        "ratings", settings_for_tests(postgres_url, token_secret=SECRET), pool, schema=ratings_schema
    )


@pytest.fixture
def player(app: Any) -> Callable[[], Player]:
    return lambda: Player(app)
