"""Issue 34, point 6: a player deletes their account, confirming it with their password. The person
is erased from every table of the database (username, password hash, display name, the log-in
records naming the username and the addresses it was used from, the stored response of the
registration), even from events stored before the events stopped carrying the username; every token
of the player is refused; the username is free again; the stream keeps its facts, read with the
pseudonym."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient
from psycopg import sql
from psycopg_pool import ConnectionPool

from libs.config import Settings
from libs.eventstore import EventStore, Expect, NewEvent
from services.accounts import domain
from tests.erasure import places_holding
from tests.integration.accounts.conftest import PASSWORD, SECRET
from tests.integration.conftest import settings_for_tests
from tests.integration.web.shape import assert_error

Login = Callable[..., Any]
OPERATOR = "operator-token-for-the-deletion-tests"
PERSONAL = ("username", "hash", "display_name")


@pytest.fixture
def settings(postgres_url: str) -> Settings:
    """The accounts tests' settings, with an operator token (``/v1/admin/accounts``)."""
    return settings_for_tests(
        postgres_url, token_secret=SECRET, token_ttl_seconds=900, operator_token=OPERATOR
    )


def _token_of(login: Login, username: str, address: str = "10.0.0.1") -> dict[str, str]:
    resp = login(username, address=address)
    assert resp.status_code == 201, resp.get_json()
    return {"Authorization": f"Bearer {resp.get_json()['token']}"}


def _delete(client: FlaskClient, headers: dict[str, str], password: str = PASSWORD) -> Any:
    return client.delete("/v1/accounts/me", json={"password": password}, headers=headers)


def _password_hash(pool: ConnectionPool, schema: str, player: str) -> str:
    query = sql.SQL("SELECT password_hash FROM {} WHERE player_id = %s").format(
        sql.Identifier(schema, "players")
    )
    with pool.connection() as conn:
        row = conn.execute(query, (player,)).fetchone()
    assert row is not None
    return str(row[0])


@pytest.fixture
def account(client: FlaskClient, login: Login, pool: ConnectionPool, accounts_schema: str) -> dict[str, Any]:
    """An account with its person in every place accounts keeps one: a registration with an
    Idempotency-Key (its stored response), a chosen display name, a failed and two successful
    log-ins from two addresses, and a version 1 ``PlayerLoggedIn`` with the username, as stored
    before this change."""
    username = "erase_" + uuid.uuid4().hex[:12]
    body = {"username": username, "password": PASSWORD}
    registered = client.post("/v1/accounts", json=body, headers={"Idempotency-Key": f"k-{username}"})
    assert registered.status_code == 201, registered.get_json()
    player = registered.get_json()["player_id"]
    assert login(username, "not the password", address="10.9.8.7").status_code == 401
    headers = _token_of(login, username, address="10.9.8.7")
    shown = "Moth " + uuid.uuid4().hex[:8]
    assert client.put("/v1/me/display-name", json={"display_name": shown}, headers=headers).status_code == 200
    legacy = NewEvent("PlayerLoggedIn", {"player_id": player, "username": username}, schema_version=1)
    EventStore(pool, accounts_schema).append(f"player-{player}", Expect.STREAM_EXISTS, [legacy])
    return {
        "player": player,
        "username": username,
        "display_name": shown,
        "hash": _password_hash(pool, accounts_schema, player),
        "headers": headers,
        "other_headers": _token_of(login, username, address="10.0.0.2"),
    }


def test_deleting_an_account_erases_the_person_from_every_table(
    client: FlaskClient, login: Login, pool: ConnectionPool, account: dict[str, Any]
) -> None:
    with pool.connection() as conn:
        for needle in PERSONAL:  # the check finds each before
            assert places_holding(conn, account[needle]), needle

    assert _delete(client, account["headers"]).status_code == 204

    with pool.connection() as conn:
        for needle in PERSONAL:
            assert places_holding(conn, account[needle]) == [], needle
    for headers in (account["headers"], account["other_headers"]):
        assert_error(client.get("/v1/me", headers=headers), 401, "unauthorized")
    assert_error(login(account["username"]), 401, "invalid_credentials")


def test_the_stream_keeps_its_facts_under_the_pseudonym(
    client: FlaskClient, pool: ConnectionPool, accounts_schema: str, account: dict[str, Any]
) -> None:
    assert _delete(client, account["headers"]).status_code == 204
    player = account["player"]
    events = EventStore(pool, accounts_schema).read(f"player-{player}")
    assert [e.type for e in events] == [
        "PlayerRegistered",
        "PlayerLoggedIn",
        "DisplayNameChanged",
        "PlayerLoggedIn",  # the version 1 one, its username gone
        "PlayerLoggedIn",
        "AllSessionsRevoked",
        "AccountDeleted",
    ]
    shown = domain.pseudonym(uuid.UUID(player))
    assert events[2].data == {"player_id": player, "display_name": shown}
    assert events[3].data == {"player_id": player}
    assert events[-2].data == {"player_id": player, "token_version": 2}
    assert events[-1].data == {"player_id": player, "by": "player", "pseudonym": shown}


def test_the_username_is_free_again_for_someone_else(
    client: FlaskClient, register: Callable[..., Any], login: Login, account: dict[str, Any]
) -> None:
    assert _delete(client, account["headers"]).status_code == 204
    again = register(account["username"], "another password")
    assert again["player_id"] != account["player"]
    assert login(account["username"], "another password").status_code == 201


def test_a_wrong_password_deletes_nothing(
    client: FlaskClient, pool: ConnectionPool, accounts_schema: str, account: dict[str, Any]
) -> None:
    stream = f"player-{account['player']}"
    before = EventStore(pool, accounts_schema).read(stream)
    assert_error(_delete(client, account["headers"], "not the password"), 403, "wrong_password")
    assert_error(
        client.delete("/v1/accounts/me", json={}, headers=account["headers"]), 422, "validation_error"
    )
    assert_error(client.delete("/v1/accounts/me", json={"password": PASSWORD}), 401, "unauthorized")
    assert EventStore(pool, accounts_schema).read(stream) == before
    assert client.get("/v1/me", headers=account["headers"]).get_json()["username"] == account["username"]


def _by_operator(client: FlaskClient, player: str, token: str | None = OPERATOR, **body: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.delete(f"/v1/admin/accounts/{player}", json=body, headers=headers)


def test_an_operator_deletes_an_account_on_the_player_s_request(
    client: FlaskClient, pool: ConnectionPool, accounts_schema: str, account: dict[str, Any]
) -> None:
    player, reason = account["player"], "asked by mail, ticket 4711"
    assert_error(_by_operator(client, player, None, reason=reason), 401, "unauthorized")
    assert_error(_by_operator(client, player, "not the operator", reason=reason), 403, "forbidden")
    assert_error(_by_operator(client, player), 422, "validation_error")
    assert_error(_by_operator(client, str(uuid.uuid4()), reason=reason), 404, "account_not_found")
    assert client.get("/v1/me", headers=account["headers"]).status_code == 200  # nothing erased yet

    assert _by_operator(client, player, reason=reason).status_code == 204
    assert_error(client.get("/v1/me", headers=account["headers"]), 401, "unauthorized")
    with pool.connection() as conn:
        assert [n for n in PERSONAL if places_holding(conn, account[n])] == []
        assert places_holding(conn, reason) == []  # the reason is logged, never stored
    last = EventStore(pool, accounts_schema).read(f"player-{player}")[-1]
    assert (last.type, last.data["by"]) == ("AccountDeleted", "operator")
    assert_error(_by_operator(client, player, reason=reason), 404, "account_not_found")
