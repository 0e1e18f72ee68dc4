"""Issue 34, point 5: an operator suspends an account and restores it, with a reason.

Suspended, the player's token answers 401 and their log-in 403 ``account_suspended``; restored, they
log in again. Each action appends ``AccountSuspended`` / ``AccountRestored`` to the player's stream
(what matchmaking and match consume) and an ``OperatorActed`` naming the operator (the name of the
token used) and the reason to accounts' ``audit`` stream. Refusals write nothing; a player's token
on ``/v1/admin/...`` is 403."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient
from psycopg_pool import ConnectionPool

from libs.config import Settings
from libs.eventstore import EventStore
from tests.integration.accounts.conftest import SECRET
from tests.integration.conftest import settings_for_tests
from tests.integration.web.shape import assert_error

ALICE = "alice-operator-token-" + "a" * 20
SHARED = "shared-operator-token-" + "s" * 20


@pytest.fixture
def settings(postgres_url: str) -> Settings:
    return settings_for_tests(
        postgres_url,
        token_secret=SECRET,
        token_ttl_seconds=900,
        operator_token=SHARED,
        operator_tokens=f"alice={ALICE}",
    )


def _as(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _player(register: Callable[..., Any], login: Callable[..., Any], name: str) -> tuple[str, dict[str, str]]:
    player = register(name)["player_id"]
    resp = login(name)
    assert resp.status_code == 201, resp.get_json()
    return player, _as(resp.get_json()["token"])


def _audit(pool: ConnectionPool, schema: str) -> list[dict[str, Any]]:
    return [e.data for e in EventStore(pool, schema).read("audit")]


def _types(pool: ConnectionPool, schema: str, player: str) -> list[str]:
    return [e.type for e in EventStore(pool, schema).read(f"player-{player}")]


def test_suspend_refuses_the_token_and_the_log_in_until_restored(
    client: FlaskClient,
    register: Callable[..., Any],
    login: Callable[..., Any],
    pool: ConnectionPool,
    accounts_schema: str,
) -> None:
    player, token = _player(register, login, "suspect")
    assert client.get("/v1/me", headers=token).status_code == 200

    resp = client.post(
        f"/v1/admin/accounts/{player}/suspension", json={"reason": "chargeback fraud"}, headers=_as(ALICE)
    )
    assert resp.status_code == 204, resp.get_json()
    assert_error(client.get("/v1/me", headers=token), 401, "unauthorized")
    assert_error(login("suspect"), 403, "account_suspended")
    assert_error(login("suspect", password="a wrong password!"), 401, "invalid_credentials")
    again = client.post(
        f"/v1/admin/accounts/{player}/suspension", json={"reason": "twice"}, headers=_as(ALICE)
    )
    assert_error(again, 409, "already_suspended")

    resp = client.delete(
        f"/v1/admin/accounts/{player}/suspension", json={"reason": "appeal upheld"}, headers=_as(SHARED)
    )
    assert resp.status_code == 204, resp.get_json()
    assert login("suspect").status_code == 201
    assert_error(
        client.delete(
            f"/v1/admin/accounts/{player}/suspension", json={"reason": "again"}, headers=_as(ALICE)
        ),
        409,
        "not_suspended",
    )

    assert _types(pool, accounts_schema, player)[-4:] == [
        "AllSessionsRevoked",
        "AccountSuspended",
        "AccountRestored",
        "PlayerLoggedIn",
    ]
    audit = _audit(pool, accounts_schema)
    assert [(a["action"], a["operator"], a["reason"], a["player_id"]) for a in audit] == [
        ("suspend_account", "alice", "chargeback fraud", player),
        ("restore_account", "operator", "appeal upheld", player),
    ]
    assert {a["subject"] for a in audit} == {f"player-{player}"}


def test_bad_operator_requests_write_nothing(
    client: FlaskClient,
    register: Callable[..., Any],
    login: Callable[..., Any],
    pool: ConnectionPool,
    accounts_schema: str,
) -> None:
    player, token = _player(register, login, "bystander")
    events = EventStore(pool, accounts_schema)
    count = lambda: len(events.read(f"player-{player}")) + len(events.read("audit"))  # noqa: E731
    written = count()
    url = f"/v1/admin/accounts/{player}/suspension"

    assert_error(client.post(url, json={"reason": "x"}, headers=token), 403, "forbidden")  # a player's token
    assert_error(client.post(url, json={"reason": "cheating"}), 401, "unauthorized")
    assert_error(client.post(url, json={}, headers=_as(ALICE)), 422, "validation_error")
    assert_error(client.post(url, json={"reason": "   "}, headers=_as(ALICE)), 422, "validation_error")
    unknown = "/v1/admin/accounts/00000000-0000-4000-8000-000000000000/suspension"
    assert_error(
        client.post(unknown, json={"reason": "cheating"}, headers=_as(ALICE)), 404, "account_not_found"
    )
    assert count() == written
    assert client.get("/v1/me", headers=token).status_code == 200


def test_a_suspended_account_can_still_be_deleted(
    client: FlaskClient, register: Callable[..., Any], login: Callable[..., Any]
) -> None:
    player, _ = _player(register, login, "leaver")
    url = f"/v1/admin/accounts/{player}"
    assert client.post(f"{url}/suspension", json={"reason": "spam"}, headers=_as(ALICE)).status_code == 204
    assert client.delete(url, json={"reason": "asked by mail"}, headers=_as(ALICE)).status_code == 204
    gone = client.delete(f"{url}/suspension", json={"reason": "too late"}, headers=_as(ALICE))
    assert_error(gone, 404, "account_not_found")
    assert register("leaver")["player_id"] != player  # the username is free again
