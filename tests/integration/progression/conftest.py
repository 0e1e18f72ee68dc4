"""Fixtures of the progression tests: a migrated schema, the app, the service, players with tokens,
and source events (PlayerLoggedIn, MatchEnded) written as accounts and match would write them."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from psycopg_pool import ConnectionPool

from libs import clock
from libs.config import PROJECT_ROOT, Settings
from libs.db import migrate
from libs.eventstore import RecordedEvent
from libs.kit.web import service_app
from libs.web import issue_token
from services.progression.projections import TABLES
from services.progression.service import ProgressionService
from tests.integration.conftest import row_counter, settings_for_tests
from tests.integration.match.conftest import (  # noqa: F401  (the match service, to play real matches)
    app,
    make_player,
    match_schema,
    scheduler,
    settings,
    svc,
)

SECRET = "progression-test-secret-" + "p" * 50
MIGRATIONS = PROJECT_ROOT / "services" / "progression" / "migrations"
READ_MODELS = tuple(t for t in TABLES if t != "projected_streams")  # the player-facing read models


@pytest.fixture
def progression_schema(postgres_url: str, schema_name: str) -> str:
    schema = f"{schema_name}_pg"
    migrate(postgres_url, schema, [MIGRATIONS])
    return schema


@pytest.fixture
def progression(pool: ConnectionPool, progression_schema: str) -> ProgressionService:
    return ProgressionService(pool, progression_schema)


@pytest.fixture
def progression_app(postgres_url: str, pool: ConnectionPool, progression_schema: str) -> Flask:
    own: Settings = settings_for_tests(postgres_url, token_secret=SECRET)
    return service_app("progression", own, pool, schema=progression_schema)


@pytest.fixture(autouse=True)
def _real_clock() -> Iterator[None]:
    clock.set_offset(0)
    yield
    clock.set_offset(0)


def move_clock_to(day: dt.date, hour: int = 12) -> None:
    """Move ``libs.clock`` forward so that it reads ``day`` at ``hour``:00 UTC."""
    target = dt.datetime(day.year, day.month, day.day, hour, tzinfo=dt.UTC)
    clock.set_offset(0)
    delta = (target - clock.now()).total_seconds()
    assert delta >= 0, "the clock only moves forward"
    clock.set_offset(delta)


class Client:
    """One player's HTTP client on the progression app."""

    def __init__(self, flask_app: Flask, player_id: str | None = None) -> None:
        self.id = player_id or str(uuid.uuid4())
        self.token = issue_token(SECRET, uuid.UUID(self.id), 3600).token
        self.client = flask_app.test_client()

    def get(self, path: str) -> Any:
        return self.client.get(path, headers={"Authorization": f"Bearer {self.token}"})

    def post(self, path: str, body: Any = None) -> Any:
        return self.client.post(path, json=body, headers={"Authorization": f"Bearer {self.token}"})


@pytest.fixture
def make_client(progression_app: Flask) -> Any:
    return lambda player_id=None: Client(progression_app, player_id)


@pytest.fixture
def counts(pool: ConnectionPool, progression_schema: str) -> Any:
    return row_counter(pool, progression_schema, ("events", *READ_MODELS))


def source_event(
    kind: str, data: dict[str, Any], at: dt.datetime, stream: str, version: int = 1
) -> RecordedEvent:
    """An event as another service's relay delivers it."""
    return RecordedEvent(uuid.uuid4(), stream, version, 1, kind, 1, at, None, None, data)


def logged_in(player: str, at: dt.datetime) -> RecordedEvent:
    return source_event("PlayerLoggedIn", {"player_id": player, "username": "u"}, at, f"player-{player}")


def match_ended(
    players: tuple[str, str],
    winner: str | None,
    at: dt.datetime,
    *,
    mode: str = "ranked",
    turns: int = 9,
    stats: dict[str, Any] | None = None,
    match_id: str | None = None,
) -> RecordedEvent:
    match_id = match_id or str(uuid.uuid4())
    data = {
        "winner": "draw" if winner is None else winner,  # as match publishes a draw
        "reason": "hero_dead",
        "match_id": match_id,
        "mode": mode,
        "players": list(players),
        "loser": None if winner is None else next(p for p in players if p != winner),
        "draw": winner is None,
        "turns": turns,
        "round": (turns + 1) // 2,
        "bot": None,
        "stats": stats or {p: {} for p in players},
    }
    return source_event("MatchEnded", data, at, f"match-{match_id}", 40)


def read_model_rows(pool: ConnectionPool, schema: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every read model, sorted: compare before and after a rebuild."""
    from psycopg import sql

    out: dict[str, list[tuple[Any, ...]]] = {}
    with pool.connection() as conn:
        for table in READ_MODELS:
            rows = conn.execute(sql.SQL("SELECT * FROM {}").format(sql.Identifier(schema, table))).fetchall()
            out[table] = sorted(tuple(str(v) for v in row) for row in rows)
    return out


def events_of(
    pool: ConnectionPool, schema: str, types: tuple[str, ...] = ()
) -> list[tuple[str, dict[str, Any]]]:
    """(type, data) of the schema's events in position order (only ``types`` when given)."""
    from psycopg import sql

    query = sql.SQL("SELECT type, data FROM {} ORDER BY position").format(sql.Identifier(schema, "events"))
    with pool.connection() as conn:
        rows = conn.execute(query).fetchall()
    return [(t, d) for t, d in rows if not types or t in types]
