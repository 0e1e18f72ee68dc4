"""A new player's first ticket does not fail (issue 34, finding 4): two players register and queue
at once while the match service's consumer of accounts' registrations is held back. Match refuses
the pairing (`unknown_player`); matchmaking returns both tickets to waiting instead of failing them
and, once the consumer is let go, pairs them again: the same two tickets end matched. Real
PostgreSQL and broker: accounts, matchmaking and match each with its own schema, relay and consumers
(on topics of this test's own), the pairing pass run as Celery beat runs it. No client re-queues
here (the web client's fallback): the tickets that end matched are the ones first opened."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from psycopg import sql
from psycopg_pool import ConnectionPool

from libs.bus import OutboxRelay, Projector
from libs.bus.consumer import ConsumerRunner
from libs.config import PROJECT_ROOT
from libs.db import migrate
from libs.eventstore import EventStore
from libs.kit import definition
from libs.kit.consume import subscription_runner
from libs.kit.web import service_app
from services.accounts.service import AccountsConfig, LoginPolicy
from services.match.events import LIFECYCLE_TOPIC
from services.match.root import assemble
from services.match.scheduling import RecordingScheduler
from services.matchmaking.projections import projection
from services.matchmaking.service import MatchmakingService
from tests.integration.accounts.conftest import FAST_SCRYPT
from tests.integration.bus.helpers import wait_until
from tests.integration.conftest import settings_for_tests

from .conftest import retargeted

SECRET = "first-ticket-secret-" + "f" * 50
PASSWORD = "correct horse battery"


class Stack:
    """Accounts, matchmaking and match on one database and broker, each in a schema of its own."""

    def __init__(self, postgres_url: str, pool: ConnectionPool, schema: str, bootstrap: str) -> None:
        self.schemas = {name: f"{schema}_{name[:3]}" for name in ("accounts", "matchmaking", "match")}
        for name, own in self.schemas.items():
            migrate(postgres_url, own, [PROJECT_ROOT / "services" / name / "migrations"])
        settings = settings_for_tests(postgres_url, token_secret=SECRET)
        policy = LoginPolicy(per_username=5, per_address=20, window_seconds=60, register_per_address=30)
        accounts_config = AccountsConfig(FAST_SCRYPT, policy)
        self.accounts = service_app(
            "accounts", settings, pool, schema=self.schemas["accounts"], config=accounts_config
        ).test_client()
        self.queue = service_app(
            "matchmaking", settings, pool, schema=self.schemas["matchmaking"]
        ).test_client()
        self.mm = MatchmakingService(pool, self.schemas["matchmaking"])
        self.match = assemble(pool, self.schemas["match"], scheduler=RecordingScheduler())
        self.relays = {
            name: OutboxRelay(
                EventStore(pool, self.schemas[name]),
                publication.topics[0].split(".")[1],
                bootstrap,
                publication=publication,
            )
            for name, publication in (
                ("accounts", retargeted("accounts")),
                ("matchmaking", retargeted("matchmaking")),
                ("match", retargeted("match", keep=LIFECYCLE_TOPIC)),
            )
        }
        self.consumers = {
            "match requests": self._runner("match", "MatchRequested", "matchmaking", pool, bootstrap),
            "match players": self._runner("match", "PlayerRegistered", "accounts", pool, bootstrap),
            "matchmaking matches": self._runner(
                "matchmaking", "MatchRequestRejected", "match", pool, bootstrap
            ),
        }

    def _runner(
        self, service: str, kind: str, source: str, pool: ConnectionPool, bootstrap: str
    ) -> ConsumerRunner:
        (sub,) = [s for s in definition(service).subscriptions if kind in s.handlers]
        target = self.match if service == "match" else self.mm
        return subscription_runner(
            sub,
            target,
            pool,
            self.schemas[service],
            bootstrap,
            topics=[self.relays[source].topic],
            name=f"{sub.name}-{uuid.uuid4().hex[:8]}",
        )

    def register_and_queue(self, username: str) -> tuple[str, str, str]:
        """Register, log in and queue for ranked at once: (player id, token, ticket id)."""
        account = {"username": username, "password": PASSWORD}
        registered = self.accounts.post("/v1/accounts", json=account)
        assert registered.status_code == 201, registered.get_json()
        token = self.accounts.post("/v1/sessions", json=account).get_json()["token"]
        queued = self.queue.post("/v1/queue", json={"mode": "ranked"}, headers=_bearer(token))
        assert queued.status_code == 202, queued.get_json()
        return registered.get_json()["player_id"], token, queued.get_json()["ticket_id"]

    def ticket_events(self, ticket_id: str) -> list[str]:
        return [e.type for e in self.mm.events.read(f"ticket-{ticket_id}")]

    def stop(self) -> None:
        for part in (*self.consumers.values(), *self.relays.values()):
            part.stop()  # one never started: nothing to stop


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def stack(postgres_url: str, pool: ConnectionPool, schema_name: str, kafka_bootstrap: str) -> Iterator[Stack]:
    made = Stack(postgres_url, pool, schema_name, kafka_bootstrap)
    yield made
    made.stop()


def _pairing_until(stack: Stack, done: Callable[[], bool], timeout: float, what: str) -> None:
    """Run the pairing pass (Celery beat runs it every second; here every half second) until ``done``."""

    def passed() -> bool:
        stack.mm.pair()
        return done()

    wait_until(passed, timeout, what, interval=0.5)


def test_players_who_queue_right_after_registering_are_matched_not_failed(stack: Stack) -> None:
    ada, bob = (stack.register_and_queue(f"{name}_{uuid.uuid4().hex[:8]}") for name in ("ada", "bob"))
    tickets = [ada[2], bob[2]]
    held_back = stack.consumers.pop("match players")  # match has not heard of either account yet
    for part in (*stack.relays.values(), *stack.consumers.values()):
        part.start()

    def answered() -> bool:
        return all({"TicketReturned", "TicketFailed"} & set(stack.ticket_events(t)) for t in tickets)

    _pairing_until(stack, answered, 120, "match's answer to the first pairing")
    for t in tickets:
        assert "TicketFailed" not in stack.ticket_events(t), stack.ticket_events(t)
        refused = [e for e in stack.mm.events.read(f"ticket-{t}") if e.type == "TicketReturned"]
        assert refused[0].data["reason"] == "unknown_player"
    held_back.start()  # the consumer catches up
    stack.consumers["match players"] = held_back

    def matched() -> bool:
        return all(stack.mm.look(p, t).status == "matched" for p, _, t in (ada, bob))

    _pairing_until(stack, matched, 180, "both first tickets matched")  # returns wait 1, 2, 4 ... 30 s
    views = [
        stack.queue.get(f"/v1/queue/{t}", headers=_bearer(token)).get_json() for _, token, t in (ada, bob)
    ]
    assert [v["status"] for v in views] == ["matched", "matched"]
    assert views[0]["match_id"] == views[1]["match_id"]
    for t in tickets:
        assert "TicketFailed" not in stack.ticket_events(t)
    created = stack.match.matches.read_events(views[0]["match_id"])
    assert created[0].type == "MatchCreated" and set(created[0].data["players"]) == {ada[0], bob[0]}
    _rebuilds_to_the_same_rows(stack.mm)


def _rebuilds_to_the_same_rows(mm: MatchmakingService) -> None:
    """The read models after returns and a match rebuild from the events to the same rows; the
    previous opponents are the players a match was created with."""

    def rows() -> list[list[tuple[Any, ...]]]:
        with mm.pool.connection() as conn:
            return [
                conn.execute(
                    sql.SQL("SELECT * FROM {} ORDER BY 1").format(sql.Identifier(mm.schema, t))
                ).fetchall()
                for t in ("tickets", "last_opponents")
            ]

    before = rows()
    assert len(before[1]) == 2  # each other's previous ranked opponent
    Projector(mm.events, projection(mm.schema)).rebuild()
    assert rows() == before
