"""Fixtures of the matchmaking tests: a migrated schema and the service on the real PostgreSQL."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from psycopg_pool import ConnectionPool

from libs import clock
from libs.bus import topic_for
from libs.config import PROJECT_ROOT
from libs.contracts import MatchEnded, RatingChanged
from libs.db import migrate
from libs.eventstore import EventStore, RecordedEvent
from libs.kit import Publication, definition
from libs.kit.web import service_app
from libs.web import issue_token
from services.matchmaking.service import MatchmakingService
from tests.integration.conftest import row_counter, settings_for_tests

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


def rating_changed(player: str, after: int, hidden: int | None = None) -> dict[str, Any]:
    """A RatingChanged's data as ratings publishes it (a win from 900 to ``after`` visible, to
    ``hidden``, the same unless told, hidden)."""
    hidden = after if hidden is None else hidden
    return RatingChanged(
        player, str(uuid.uuid4()), 900, after, "bronze", "bronze", after - 900, "win", 900, hidden
    ).data()


def match_ended(match_id: str, mode: str, winner: str, loser: str) -> dict[str, Any]:
    """A MatchEnded's data as match publishes it (``winner`` beat ``loser`` at turn 5)."""
    return MatchEnded(
        winner, "hero_killed", match_id, mode, [winner, loser], loser, False, turns=5, round=3
    ).data()


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


SECRET = "matchmaking-test-secret-" + "m" * 50


class Player:
    """One player's HTTP client with their own bearer token."""

    def __init__(self, app: Any, player_id: str | None = None) -> None:
        self.id = player_id or str(uuid.uuid4())
        self.token = issue_token(SECRET, uuid.UUID(self.id), 3600).token
        self.client = app.test_client()

    def _h(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", **(extra or {})}

    def get(self, path: str) -> Any:
        return self.client.get(path, headers=self._h())

    def post(self, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
        return self.client.post(path, json=body, headers=self._h(headers))

    def delete(self, path: str) -> Any:
        return self.client.delete(path, headers=self._h())


@pytest.fixture
def app(postgres_url: str, pool: ConnectionPool, mm_schema: str) -> Any:
    settings = settings_for_tests(postgres_url, token_secret=SECRET)
    return service_app("matchmaking", settings, pool, schema=mm_schema)


@pytest.fixture
def player(app: Any) -> Callable[[], Player]:
    return lambda: Player(app)


@pytest.fixture
def counts(pool: ConnectionPool, mm_schema: str) -> Callable[[], dict[str, int]]:
    return row_counter(pool, mm_schema, ("events", "tickets", "ticket_polls", "idempotency"))


def retargeted(service: str, keep: str | None = None) -> Publication:
    """``service``'s declared publication (every event as stored without one), sent to a topic of
    the test's own on the shared broker; ``keep``: only what it sends to that one of its topics."""
    declared = definition(service).publication
    own = topic_for(f"{service[:3]}{uuid.uuid4().hex[:10]}")

    def route(event: RecordedEvent, store: EventStore) -> Sequence[tuple[str, RecordedEvent]]:
        routed = declared.route(event, store) if declared is not None else [(topic_for(service), event)]
        return [(own, e) for topic, e in routed if keep is None or topic == keep]

    return Publication((own,), route)
