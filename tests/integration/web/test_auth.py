"""Bearer tokens and operator auth: every bad token is a 401 in the error shape."""

from __future__ import annotations

import base64
import json
import uuid
from datetime import UTC, datetime, timedelta

import jwt
import pytest
from flask import Flask
from flask.testing import FlaskClient

from libs.web import issue_token
from tests.integration.web.conftest import SECRET
from tests.integration.web.shape import assert_error

PLAYER = uuid.uuid4()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def good_token() -> str:
    return issue_token(SECRET, PLAYER, 600).token


def claims(**changes: object) -> dict[str, object]:
    now = datetime.now(UTC)
    base: dict[str, object] = {
        "sub": str(PLAYER),
        "iat": now,
        "exp": now + timedelta(minutes=5),
        "jti": "t1",
        "iss": "arcana",
    }
    base.update(changes)
    return {k: v for k, v in base.items() if v is not None}


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def forged_token() -> str:
    """A real token whose payload is swapped for another player's, signature kept."""
    header, _, signature = good_token().split(".")
    payload = _b64(json.dumps(claims(sub=str(uuid.uuid4())), default=lambda d: int(d.timestamp())).encode())
    return f"{header}.{payload}.{signature}"


def unsigned_token() -> str:
    header = _b64(json.dumps({"alg": "none", "typ": "JWT"}).encode())
    payload = _b64(json.dumps(claims(), default=lambda d: int(d.timestamp())).encode())
    return f"{header}.{payload}."


def test_a_valid_token_identifies_the_player(client: FlaskClient) -> None:
    resp = client.get("/v1/whoami", headers=bearer(good_token()))
    assert resp.status_code == 200
    assert resp.get_json() == {"player_id": str(PLAYER)}


BAD_TOKENS = {
    "garbage": lambda: "not-a-token",
    "empty-parts": lambda: "..",
    "expired": lambda: issue_token(SECRET, PLAYER, 60, now=datetime.now(UTC) - timedelta(hours=2)).token,
    "forged-payload": forged_token,
    "wrong-secret": lambda: issue_token("another-secret-" + "x" * 40, PLAYER, 600).token,
    "alg-none": unsigned_token,
    "other-algorithm": lambda: jwt.encode(claims(), SECRET, algorithm="HS512"),
    "sub-not-a-uuid": lambda: jwt.encode(claims(sub="admin"), SECRET, algorithm="HS256"),
    "no-exp": lambda: jwt.encode(claims(exp=None), SECRET, algorithm="HS256"),
    "no-jti": lambda: jwt.encode(claims(jti=None), SECRET, algorithm="HS256"),
    "wrong-issuer": lambda: jwt.encode(claims(iss="elsewhere"), SECRET, algorithm="HS256"),
    "not-yet-issued": lambda: jwt.encode(
        claims(nbf=datetime.now(UTC) + timedelta(hours=1)), SECRET, algorithm="HS256"
    ),
}


@pytest.mark.parametrize("name", sorted(BAD_TOKENS))
def test_bad_tokens_are_401(client: FlaskClient, name: str) -> None:
    resp = client.get("/v1/whoami", headers=bearer(BAD_TOKENS[name]()))
    assert_error(resp, 401, "unauthorized")
    assert resp.headers["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize(
    "header", [None, "", "Bearer", "Bearer ", "Basic dXNlcjpwYXNz", "Token abc", "Bearer a b"]
)
def test_missing_or_malformed_authorization_is_401(client: FlaskClient, header: str | None) -> None:
    headers = {} if header is None else {"Authorization": header}
    assert_error(client.get("/v1/whoami", headers=headers), 401, "unauthorized")


def test_auth_is_checked_before_the_body_and_nothing_is_written(client: FlaskClient, counts) -> None:  # type: ignore[no-untyped-def]
    before = counts()
    assert_error(client.post("/v1/my-things", json={"name": "lamp"}), 401, "unauthorized")
    assert_error(
        client.post("/v1/my-things", json={"nope": 1}, headers=bearer(forged_token())), 401, "unauthorized"
    )
    assert_error(
        client.post("/v1/my-things", data=b"{", content_type="application/json", headers=bearer("x")),
        400,
        "malformed_json",
    )
    assert counts() == before
    resp = client.post("/v1/my-things", json={"name": "lamp"}, headers=bearer(good_token()))
    assert resp.status_code == 201
    assert resp.get_json()["owner"] == str(PLAYER)


def test_operator_endpoints_do_not_exist_without_an_operator_token(client: FlaskClient) -> None:
    assert_error(client.get("/v1/admin/ping"), 404, "not_found")
    assert_error(client.get("/v1/admin/ping", headers=bearer("anything")), 404, "not_found")


def test_operator_endpoints_need_the_operator_token(make_app) -> None:  # type: ignore[no-untyped-def]
    app: Flask = make_app(operator_token="op-" + "k" * 30)
    client = app.test_client()
    missing = client.get("/v1/admin/ping")
    assert_error(missing, 401, "unauthorized")
    assert missing.headers["WWW-Authenticate"].startswith("Bearer")
    assert_error(client.get("/v1/admin/ping", headers=bearer("op-wrong")), 403, "forbidden")
    assert_error(client.get("/v1/admin/ping", headers=bearer(good_token())), 403, "forbidden")
    resp = client.get("/v1/admin/ping", headers=bearer("op-" + "k" * 30))
    assert resp.status_code == 200 and resp.get_json() == {"pong": True}
