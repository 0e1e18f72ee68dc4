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
from libs.eventstore import EventStore, RecordedEvent
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


def created(ended: dict[str, Any]) -> dict[str, Any]:
    """The MatchCreated the match service published before the MatchEnded ``ended``."""
    bots = [ended["bot"]] if ended.get("bot") else []
    return {
        "match_id": ended["match_id"], "mode": ended["mode"], "players": ended["players"],
        "bot": ended.get("bot"), "request_id": None, "game": ended.get("game", "arcana"), "bots": bots,
    }  # fmt: skip


def start(svc: RatingsService, ended: dict[str, Any]) -> None:
    """Deliver the MatchCreated of ``ended`` (what ratings must have seen before rating its end)."""
    from services.ratings.consumers import match_created

    with svc.pool.connection() as conn, conn.transaction():
        match_created(svc, as_event("MatchCreated", created(ended)), conn)


@pytest.fixture
def deliver(svc: RatingsService) -> Callable[..., None]:
    """Apply an event in its own transaction, as the consumer does (the handlers of root.py). A
    MatchEnded comes after its match's MatchCreated, as match publishes them on one stream, unless
    ``started=False``."""
    from services.ratings.root import SERVICE

    handlers = {k: v for sub in SERVICE.subscriptions for k, v in sub.handlers.items()}

    def run(kind: str, data: dict[str, Any], version: int = 1, started: bool = True) -> None:
        if kind == "MatchEnded" and started:
            start(svc, data)
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


@pytest.fixture
def source(postgres_url: str, pool: ConnectionPool) -> EventStore:
    """The match service's event store, for the test (its relay publishes what it holds)."""
    schema = f"src_{uuid.uuid4().hex[:10]}"
    migrate(postgres_url, schema)
    return EventStore(pool, schema)
