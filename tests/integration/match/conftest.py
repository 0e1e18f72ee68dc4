"""Fixtures of the match service tests: a migrated schema, the Flask app with a recording scheduler,
players with tokens, matches made by the operator endpoint, and the service for timers/bot."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from flask import Flask
from psycopg_pool import ConnectionPool

from libs import clock
from libs.config import PROJECT_ROOT, Settings
from libs.db import migrate
from libs.eventstore import RecordedEvent
from libs.kit import definition
from libs.kit.consume import handler_for
from libs.kit.web import service_app
from libs.web import issue_token
from services.match.root import assemble
from services.match.scheduling import RecordingScheduler
from services.match.service import MatchService
from tests.integration.conftest import row_counter, settings_for_tests

SECRET = "match-test-secret-" + "x" * 50
OPERATOR = "operator-token-" + "y" * 30
MIGRATIONS = PROJECT_ROOT / "services" / "match" / "migrations"


@pytest.fixture
def match_schema(postgres_url: str, schema_name: str) -> str:
    migrate(postgres_url, schema_name, [MIGRATIONS])
    return schema_name


@pytest.fixture
def settings(postgres_url: str) -> Settings:
    return settings_for_tests(postgres_url, token_secret=SECRET, operator_token=OPERATOR)


@pytest.fixture
def scheduler() -> RecordingScheduler:
    return RecordingScheduler()


@pytest.fixture
def app(settings: Settings, pool: ConnectionPool, match_schema: str, scheduler: RecordingScheduler) -> Flask:
    return service_app("match", settings, pool, schema=match_schema, scheduler=scheduler)


@pytest.fixture
def svc(pool: ConnectionPool, match_schema: str, scheduler: RecordingScheduler) -> MatchService:
    """The service as the Celery tasks use it (its own cache)."""
    return assemble(pool, match_schema, scheduler=scheduler)


@pytest.fixture(autouse=True)
def _real_clock() -> Iterator[None]:
    clock.set_offset(0)
    yield
    clock.set_offset(0)


class Player:
    """One player's HTTP client (their own bearer token)."""

    def __init__(self, app: Flask, player_id: str | None = None) -> None:
        self.id = player_id or str(uuid.uuid4())
        self.token = issue_token(SECRET, uuid.UUID(self.id), 3600).token
        self.client = app.test_client()
        self.app = app

    def headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", **(extra or {})}

    def get(self, path: str) -> Any:
        return self.client.get(path, headers=self.headers())

    def post(self, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
        return self.client.post(path, json=body, headers=self.headers(headers))

    def fresh(self) -> Player:
        """Another client of the same player (thread-safe use: one client per thread)."""
        twin = Player(self.app, self.id)
        twin.token = self.token
        return twin

    # shortcuts
    def view(self, match_id: str) -> dict[str, Any]:
        r = self.get(f"/v1/matches/{match_id}")
        assert r.status_code == 200, r.get_json()
        return r.get_json()

    def command(self, match_id: str, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
        r = self.post(f"/v1/matches/{match_id}/commands", body)
        assert r.status_code == status, r.get_json()
        return r.get_json()


@pytest.fixture
def make_player(app: Flask) -> Any:
    return lambda: Player(app)


@pytest.fixture
def admin(app: Flask) -> Any:
    client = app.test_client()

    def create(players: list[Player], decks: list[list[str]], **setup: Any) -> str:
        body = {
            "setup": {
                "players": [{"id": p.id, "deck": d} for p, d in zip(players, decks, strict=True)],
                **setup,
            }
        }
        r = client.post("/v1/admin/matches", json=body, headers={"Authorization": f"Bearer {OPERATOR}"})
        assert r.status_code == 201, r.get_json()
        return str(r.get_json()["match_id"])

    return create


@pytest.fixture
def counts(pool: ConnectionPool, match_schema: str) -> Any:
    """Rows of the tables a request may write."""

    return row_counter(pool, match_schema, ("events", "idempotency", "match_index"))


def deliver(svc: MatchService, kind: str, data: dict[str, Any], stream: str, version: int = 1) -> None:
    """Apply one event of another service exactly as match's consumer does (the handler of the
    subscription that handles ``kind``, in a transaction of its own)."""
    (sub,) = [s for s in definition("match").subscriptions if kind in s.handlers]
    event = RecordedEvent(
        uuid.uuid4(), stream, version, version, kind, 1, datetime.now(UTC), None, None, data
    )
    with svc.pool.connection() as conn, conn.transaction():
        handler_for(sub, svc)(event, conn)


def registered(svc: MatchService, *players: Player | str) -> None:
    """Accounts' PlayerRegistered of each player, applied by match's consumer."""
    for p in players:
        player_id = p if isinstance(p, str) else p.id
        deliver(svc, "PlayerRegistered", {"player_id": player_id, "username": "u"}, f"player-{player_id}")
