"""POST /v1/accounts: the account row and PlayerRegistered commit together; bad input writes nothing."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from psycopg import sql
from psycopg_pool import ConnectionPool

from libs.eventstore import EventStore
from tests.integration.accounts.conftest import PASSWORD
from tests.integration.web.shape import assert_error

Counts = Callable[[], dict[str, int]]


def test_register_writes_the_row_and_the_event_together(
    client: FlaskClient, pool: ConnectionPool, accounts_schema: str, counts: Counts
) -> None:
    before = counts()
    resp = client.post("/v1/accounts", json={"username": "Alice_01", "password": PASSWORD})
    assert resp.status_code == 201
    body = resp.get_json()
    assert set(body) == {"player_id", "username", "display_name"}  # the public name: issue 17, finding 11
    assert body["username"] == "alice_01"  # usernames are case-insensitive: stored in lower case
    player_id = uuid.UUID(body["player_id"])
    after = counts()
    assert after["players"] == before["players"] + 1 and after["events"] == before["events"] + 1

    [event] = EventStore(pool, accounts_schema).read(f"player-{player_id}")
    assert event.type == "PlayerRegistered" and event.version == 1
    assert event.data == {"player_id": str(player_id)} and event.schema_version == 2  # no username: issue 34
    with pool.connection() as conn:
        row = conn.execute(
            sql.SQL("SELECT password_hash, created_at FROM {} WHERE player_id = %s").format(
                sql.Identifier(accounts_schema, "players")
            ),
            (player_id,),
        ).fetchone()
    assert row is not None
    password_hash, created_at = row
    assert password_hash.startswith("scrypt$") and PASSWORD not in password_hash
    assert created_at == event.occurred_at


def test_duplicate_username_is_409_case_insensitively_and_writes_nothing(
    client: FlaskClient, register: Callable[..., Any], counts: Counts
) -> None:
    register("bob")
    before = counts()
    for name in ("bob", "BOB", "Bob"):
        resp = client.post("/v1/accounts", json={"username": name, "password": "another password"})
        assert_error(resp, 409, "username_taken")
    assert counts() == before


BAD_BODIES: dict[str, Any] = {
    "short-username": {"username": "ab", "password": PASSWORD},
    "long-username": {"username": "a" * 25, "password": PASSWORD},
    "dash-in-username": {"username": "a-b-c", "password": PASSWORD},
    "space-in-username": {"username": "a b c", "password": PASSWORD},
    "newline-after-username": {"username": "carol\n", "password": PASSWORD},
    "unicode-username": {"username": "ålice", "password": PASSWORD},
    "short-password": {"username": "carol", "password": "1234567"},
    "long-password": {"username": "carol", "password": "p" * 129},
    "unknown-field": {"username": "carol", "password": PASSWORD, "is_admin": True},
    "number-username": {"username": 12345, "password": PASSWORD},
    "null-password": {"username": "carol", "password": None},
    "list-password": {"username": "carol", "password": [PASSWORD]},
    "missing-password": {"username": "carol"},
    "empty-object": {},
    "array": [{"username": "carol", "password": PASSWORD}],
}


@pytest.mark.parametrize("name", sorted(BAD_BODIES))
def test_invalid_registrations_are_422_and_write_nothing(
    client: FlaskClient, counts: Counts, name: str
) -> None:
    before = counts()
    error = assert_error(client.post("/v1/accounts", json=BAD_BODIES[name]), 422, "validation_error")
    assert error["details"]["fields"]
    assert counts() == before


@pytest.mark.parametrize(
    ("data", "content_type", "status", "code"),
    [
        (b'{"username": "carol", "password": ', "application/json", 400, "malformed_json"),
        (b'{"username": "carol"', "application/json", 400, "malformed_json"),
        (
            b"username=carol&password=secret123",
            "application/x-www-form-urlencoded",
            415,
            "unsupported_media_type",
        ),
        (
            b'{"username": "carol", "password": "' + b"p" * 5000 + b'"}',
            "application/json",
            413,
            "payload_too_large",
        ),
    ],
    ids=["malformed", "truncated", "form", "oversize"],
)
def test_unparseable_registrations_are_4xx_and_write_nothing(
    client: FlaskClient, counts: Counts, data: bytes, content_type: str, status: int, code: str
) -> None:
    before = counts()
    assert_error(client.post("/v1/accounts", data=data, content_type=content_type), status, code)
    assert counts() == before


@pytest.mark.parametrize(
    "body",
    [
        {"username": "car\u0000ol", "password": PASSWORD},
        {"username": "carol", "password": "pass\u0000word"},
        {"username": "carol", "password": PASSWORD, "x\u0000": 1},
    ],
    ids=["username", "password", "key"],
)
def test_nul_characters_are_400_and_write_nothing(client: FlaskClient, counts: Counts, body: Any) -> None:
    before = counts()
    assert_error(client.post("/v1/accounts", json=body), 400, "invalid_text")
    assert counts() == before


def test_registration_honours_idempotency_keys(client: FlaskClient, counts: Counts) -> None:
    before = counts()
    body = {"username": "dave", "password": PASSWORD}
    first = client.post("/v1/accounts", json=body, headers={"Idempotency-Key": "reg-1"})
    again = client.post("/v1/accounts", json=body, headers={"Idempotency-Key": "reg-1"})
    assert first.status_code == again.status_code == 201
    assert first.get_json() == again.get_json()
    assert counts()["players"] == before["players"] + 1
    other = client.post(
        "/v1/accounts", json={**body, "username": "eve"}, headers={"Idempotency-Key": "reg-1"}
    )
    assert_error(other, 422, "idempotency_key_reused")
    taken = client.post("/v1/accounts", json=body, headers={"Idempotency-Key": "reg-2"})
    assert_error(taken, 409, "username_taken")
    assert counts()["players"] == before["players"] + 1


def test_concurrent_registrations_of_one_name_make_one_account(app: Flask, counts: Counts) -> None:
    before = counts()
    barrier = threading.Barrier(12)
    statuses: list[int] = []

    def attempt(i: int) -> None:
        client = app.test_client()
        barrier.wait()
        resp = client.post("/v1/accounts", json={"username": "Racer", "password": f"password-{i}"})
        statuses.append(resp.status_code)

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(statuses) == [201] + [409] * 11
    after = counts()
    assert after["players"] == before["players"] + 1 and after["events"] == before["events"] + 1


def test_a_keyed_registration_needs_only_the_one_connection_a_pool_of_one_has(
    postgres_url: str, settings: Any, accounts_schema: str, policy: Any
) -> None:
    """Issue 17, finding 4 (accounts' share): the registration counter took a second pooled
    connection while the keyed request held its idempotency record's; with a pool of one that
    waited out the pool (503). The counter now runs before the key is claimed."""
    from libs.kit.web import service_app
    from services.accounts.service import AccountsConfig
    from tests.integration.accounts.conftest import FAST_SCRYPT

    tiny = ConnectionPool(postgres_url, min_size=1, max_size=1, timeout=2.0, open=False)
    tiny.open(wait=True, timeout=30)
    try:
        config = AccountsConfig(FAST_SCRYPT, policy)
        app = service_app("accounts", settings, tiny, schema=accounts_schema, config=config)
        body = {"username": "solo_pool", "password": PASSWORD}
        first = app.test_client().post("/v1/accounts", json=body, headers={"Idempotency-Key": "reg-1"})
        assert first.status_code == 201, first.get_json()
        again = app.test_client().post("/v1/accounts", json=body, headers={"Idempotency-Key": "reg-1"})
        assert again.get_json() == first.get_json() and again.headers["Idempotent-Replayed"] == "true"
    finally:
        tiny.close()
