"""Issue 12, finding 8: tokens can be revoked, one (log out) or all of a player's (log out
everywhere); revocation is a cached lookup, applied at once by the process that served it and by
the others within the cache's lifetime (moved with ``libs.clock``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jwt
from flask import Flask
from flask.testing import FlaskClient
from psycopg_pool import ConnectionPool

from libs import clock
from libs.config import Settings
from libs.eventstore import EventStore
from libs.kit.web import service_app
from libs.web.sessions import DEFAULT_TTL_SECONDS
from services.accounts.service import AccountsConfig, LoginPolicy
from tests.integration.accounts.conftest import FAST_SCRYPT, SECRET
from tests.integration.web.shape import assert_error


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def token_of(login: Callable[..., Any], username: str) -> str:
    resp = login(username)
    assert resp.status_code == 201
    token: str = resp.get_json()["token"]
    return token


def test_log_out_revokes_this_token_only(
    client: FlaskClient,
    pool: ConnectionPool,
    accounts_schema: str,
    register: Callable[..., Any],
    login: Callable[..., Any],
) -> None:
    player_id = register("yara")["player_id"]
    phone, laptop = token_of(login, "yara"), token_of(login, "yara")
    resp = client.delete("/v1/sessions/current", headers=bearer(phone))
    assert resp.status_code == 204
    assert_error(client.get("/v1/me", headers=bearer(phone)), 401, "unauthorized")
    assert_error(client.delete("/v1/sessions/current", headers=bearer(phone)), 401, "unauthorized")
    assert client.get("/v1/me", headers=bearer(laptop)).status_code == 200
    [revoked] = [
        e for e in EventStore(pool, accounts_schema).read(f"player-{player_id}") if e.type == "SessionRevoked"
    ]
    assert revoked.data["token_id"] == jwt.decode(phone, options={"verify_signature": False})["jti"]


def test_log_out_everywhere_revokes_every_token_issued_so_far(
    client: FlaskClient, register: Callable[..., Any], login: Callable[..., Any]
) -> None:
    register("zeke")
    first, second = token_of(login, "zeke"), token_of(login, "zeke")
    assert jwt.decode(first, options={"verify_signature": False})["ver"] == 1
    assert client.delete("/v1/sessions", headers=bearer(second)).status_code == 204
    for token in (first, second):
        assert_error(client.get("/v1/me", headers=bearer(token)), 401, "unauthorized")
    fresh = token_of(login, "zeke")
    assert jwt.decode(fresh, options={"verify_signature": False})["ver"] == 2
    assert client.get("/v1/me", headers=bearer(fresh)).status_code == 200


def test_other_processes_apply_a_revocation_within_the_cache_lifetime(
    app: Flask,
    settings: Settings,
    pool: ConnectionPool,
    accounts_schema: str,
    register: Callable[..., Any],
    login: Callable[..., Any],
) -> None:
    other_pod = service_app(
        "accounts", settings, pool, schema=accounts_schema, config=AccountsConfig(FAST_SCRYPT, LoginPolicy())
    ).test_client()
    register("abel")
    token = token_of(login, "abel")
    assert other_pod.get("/v1/me", headers=bearer(token)).status_code == 200  # cached there now
    assert app.test_client().delete("/v1/sessions/current", headers=bearer(token)).status_code == 204
    assert other_pod.get("/v1/me", headers=bearer(token)).status_code == 200  # not yet
    clock.advance(DEFAULT_TTL_SECONDS)
    assert_error(other_pod.get("/v1/me", headers=bearer(token)), 401, "unauthorized")


def test_a_token_without_a_valid_version_is_refused(
    client: FlaskClient, register: Callable[..., Any]
) -> None:
    player_id = register("bria")["player_id"]
    claims = {"sub": player_id, "iat": 0, "exp": 2**40, "jti": "x", "iss": "arcana", "ver": "2"}
    assert_error(client.get("/v1/me", headers=bearer(jwt.encode(claims, SECRET))), 401, "unauthorized")
