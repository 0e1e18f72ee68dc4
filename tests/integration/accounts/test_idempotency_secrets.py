"""Issue 12, finding 5: the idempotency table reveals no password, and two anonymous clients never
share an Idempotency-Key."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from flask.testing import FlaskClient
from psycopg import sql
from psycopg_pool import ConnectionPool

from tests.integration.accounts.conftest import PASSWORD
from tests.integration.web.shape import assert_error

LIKELY_PASSWORDS = ["sunshine99", "password1", PASSWORD, "correct horse"]


def register(client: FlaskClient, username: str, key: str, address: str, password: str = PASSWORD) -> Any:
    return client.post(
        "/v1/accounts",
        json={"username": username, "password": password},
        headers={"Idempotency-Key": key},
        environ_base={"REMOTE_ADDR": address},
    )


def stored_rows(pool: ConnectionPool, schema: str) -> list[tuple[str, str, bytes]]:
    with pool.connection() as conn:
        rows = conn.execute(
            sql.SQL("SELECT scope, fingerprint, body FROM {}").format(sql.Identifier(schema, "idempotency"))
        ).fetchall()
    return [(scope, fingerprint, bytes(body)) for scope, fingerprint, body in rows]


def unkeyed_fingerprint(username: str, password: str) -> str:
    """What anyone can compute for a guessed password: a hash of the request without a secret."""
    body = json.dumps({"password": password, "username": username}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(b"POST /v1/accounts\n" + body.encode()).hexdigest()


def test_a_stored_registration_cannot_be_matched_against_likely_passwords(
    client: FlaskClient, pool: ConnectionPool, accounts_schema: str
) -> None:
    assert register(client, "ursula", "reg-secret", "198.51.100.30", password="sunshine99").status_code == 201
    [(scope, fingerprint, body)] = stored_rows(pool, accounts_schema)
    guesses = {unkeyed_fingerprint("ursula", candidate) for candidate in LIKELY_PASSWORDS}
    assert fingerprint not in guesses
    assert b"sunshine99" not in body and "198.51.100.30" not in scope


def test_two_anonymous_clients_never_share_a_key(client: FlaskClient) -> None:
    first = register(client, "victor", "my-first-key", "198.51.100.31")
    second = register(client, "wendy", "my-first-key", "198.51.100.32")
    assert first.status_code == second.status_code == 201, second.get_json()
    assert first.get_json()["player_id"] != second.get_json()["player_id"]
    assert second.get_json()["username"] == "wendy"
    # each client's retry replays its own first response
    retry = register(client, "victor", "my-first-key", "198.51.100.31")
    assert retry.headers["Idempotent-Replayed"] == "true" and retry.get_json() == first.get_json()
    # and one client reusing its key for another body is still refused
    assert_error(register(client, "xavier", "my-first-key", "198.51.100.31"), 422, "idempotency_key_reused")
