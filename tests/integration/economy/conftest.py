"""Fixtures of the economy tests: a migrated schema and the service on the real PostgreSQL."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from psycopg_pool import ConnectionPool

from libs.config import PROJECT_ROOT
from libs.db import migrate
from libs.eventstore import EventStore, NewEvent
from services.economy.projections import READ_MODELS
from services.economy.service import EconomyService
from tests.integration.conftest import row_counter

MIGRATIONS = PROJECT_ROOT / "services" / "economy" / "migrations"
WRITTEN = ("events", "pack_seeds", *READ_MODELS, "idempotency")


@pytest.fixture
def economy_schema(postgres_url: str, schema_name: str) -> str:
    migrate(postgres_url, schema_name, [MIGRATIONS])
    return schema_name


@pytest.fixture
def source(postgres_url: str, pool: ConnectionPool) -> EventStore:
    """Another service's event store (accounts, match and progression in one, for the test)."""
    schema = f"src_{uuid.uuid4().hex[:10]}"
    migrate(postgres_url, schema)
    return EventStore(pool, schema)


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


SECRET = "economy-test-secret-" + "x" * 50
OPERATOR = "operator-token-" + "z" * 30


@pytest.fixture
def app(postgres_url: str, pool: ConnectionPool, economy_schema: str) -> Any:
    from libs.kit.web import service_app
    from tests.integration.conftest import settings_for_tests

    settings = settings_for_tests(postgres_url, token_secret=SECRET, operator_token=OPERATOR)
    return service_app("economy", settings, pool, schema=economy_schema)


class Client:
    """One player's HTTP client (their own bearer token)."""

    def __init__(self, app: Any, player_id: str) -> None:
        from libs.web import issue_token

        self.id = player_id
        self.app = app
        self.headers = {"Authorization": f"Bearer {issue_token(SECRET, uuid.UUID(player_id), 3600).token}"}
        self.http = app.test_client()

    def get(self, path: str) -> Any:
        return self.http.get(path, headers=self.headers)

    def post(self, path: str, body: Any = None) -> Any:
        return self.http.post(path, json=body, headers=self.headers)

    def put(self, path: str, body: Any) -> Any:
        return self.http.put(path, json=body, headers=self.headers)

    def delete(self, path: str) -> Any:
        return self.http.delete(path, headers=self.headers)

    def twin(self) -> Client:
        return Client(self.app, self.id)


@pytest.fixture
def client(app: Any, new_player: Any) -> Any:
    """A new player (wallet opened) with their HTTP client."""
    return lambda: Client(app, new_player())


def consume_once(svc: EconomyService, source: EventStore, make_broker: Any, done: Any, what: str) -> Any:
    """Publish what ``source`` holds through a real relay and broker to economy's credits consumer
    until ``done(runner)``, then stop both; returns the stopped runner (its counts)."""
    from libs.bus import OutboxRelay, topic_for
    from libs.kit import definition
    from libs.kit.consume import subscription_runner
    from tests.integration.bus.helpers import wait_until

    broker = make_broker.start()
    service = f"src{uuid.uuid4().hex[:8]}"
    relay = OutboxRelay(source, service, broker.bootstrap, backoff_max=1.0)
    (subscription, _sessions) = definition("economy").subscriptions
    runner = subscription_runner(
        subscription, svc, svc.pool, svc.schema, broker.bootstrap, topics=[topic_for(service)]
    )
    relay.start()
    runner.start()
    try:
        wait_until(lambda: done(runner), 90, what)
    finally:
        relay.stop()
        runner.stop()
    return runner


def quest_completed(player: str, day: str, quest_id: str, coins: int) -> NewEvent:
    """The QuestCompleted progression appends just before the quest's RewardGranted."""
    return NewEvent(
        "QuestCompleted", {"player_id": player, "day": day, "quest_id": quest_id, "coins": coins, "xp": 180}
    )


def streak_kept(player: str, day: str, streak_day: int, coins: int, packs: int = 0) -> NewEvent:
    """The StreakDayKept progression appends just before the streak day's RewardGranted."""
    data = {"player_id": player, "day": day, "streak_day": streak_day, "forgiven": False}
    return NewEvent("StreakDayKept", {**data, "forgiveness_from": None, "coins": coins, "packs": packs})
