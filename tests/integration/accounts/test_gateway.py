"""services/wsgi.py: every service behind one WSGI app, routed by its declared prefixes."""

from __future__ import annotations

from dataclasses import replace

import pytest
from psycopg_pool import ConnectionPool
from werkzeug.test import Client

from libs.config import Settings
from services import wsgi
from tests.integration.accounts.conftest import PASSWORD


@pytest.fixture
def gateway(
    settings: Settings, pool: ConnectionPool, accounts_schema: str, monkeypatch: pytest.MonkeyPatch
) -> Client:
    monkeypatch.setenv("ARCANA_SCRYPT_N", "1024")
    return Client(wsgi.build_app(replace(settings), pool, schemas={"accounts": accounts_schema}))


def test_the_gateway_routes_accounts_and_answers_the_rest(gateway: Client) -> None:
    created = gateway.post("/v1/accounts", json={"username": "gw_user", "password": PASSWORD})
    assert created.status_code == 201
    token = gateway.post("/v1/sessions", json={"username": "gw_user", "password": PASSWORD}).json["token"]
    me = gateway.get("/v1/me", headers={"Authorization": f"Bearer {token}"})
    assert me.status_code == 200 and me.json["username"] == "gw_user"
    doc = gateway.get("/v1/openapi/accounts.json").json
    assert {"/v1/accounts", "/v1/sessions", "/v1/me"} <= set(doc["paths"])
    for path in ("/healthz", "/readyz", "/metrics"):
        assert gateway.get(path).status_code == 200, path
    missing = gateway.get("/v1/nowhere")
    assert missing.status_code == 404 and missing.json["error"]["code"] == "not_found"
    assert gateway.get("/v1/openapi/nothing.json").status_code == 404
