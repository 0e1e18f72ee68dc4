"""Issue 12, finding 1: behind the Ingress, the per-address limit keys on the client's address as
forwarded with the hop count the manifests configure, and ignores hops a client forges."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import yaml
from flask.testing import FlaskClient
from psycopg_pool import ConnectionPool

from libs.config import PROJECT_ROOT, Settings
from libs.kit.web import service_app
from services.accounts.service import AccountsConfig, LoginPolicy
from tests.integration.accounts.conftest import FAST_SCRYPT, PASSWORD
from tests.integration.web.shape import assert_error

INGRESS_POD = "10.244.0.17"  # every request reaches the service from the Ingress controller


def configured_hops() -> int:
    """``ARCANA_TRUSTED_PROXIES`` of the ConfigMap every Deployment reads."""
    config = yaml.safe_load((PROJECT_ROOT / "deploy" / "k8s" / "base" / "config.yaml").read_text())
    return int(config["data"]["ARCANA_TRUSTED_PROXIES"])


@pytest.fixture
def behind_ingress(
    monkeypatch: pytest.MonkeyPatch, settings: Settings, pool: ConnectionPool, accounts_schema: str
) -> FlaskClient:
    monkeypatch.setenv("ARCANA_TRUSTED_PROXIES", str(configured_hops()))
    policy = LoginPolicy(per_username=50, per_address=5, window_seconds=60)
    app = service_app(
        "accounts", settings, pool, schema=accounts_schema, config=AccountsConfig(FAST_SCRYPT, policy)
    )
    return app.test_client()


def through_ingress(
    client: FlaskClient, sent_by_client: list[str], client_address: str
) -> Callable[..., Any]:
    """A log-in as the Ingress forwards it: the client's own X-Forwarded-For entries (any text),
    then the address the Ingress saw, appended by the Ingress."""
    forwarded = ", ".join([*sent_by_client, client_address])

    def log_in(username: str, password: str) -> Any:
        return client.post(
            "/v1/sessions",
            json={"username": username, "password": password},
            headers={"X-Forwarded-For": forwarded},
            environ_base={"REMOTE_ADDR": INGRESS_POD},
        )

    return log_in


def test_the_manifests_trust_exactly_the_ingress() -> None:
    assert configured_hops() == 1


def test_the_per_address_limit_keys_on_the_forwarded_client_and_ignores_forged_hops(
    behind_ingress: FlaskClient,
) -> None:
    behind_ingress.post(
        "/v1/accounts",
        json={"username": "trent", "password": PASSWORD},
        environ_base={"REMOTE_ADDR": INGRESS_POD},
        headers={"X-Forwarded-For": "192.0.2.50"},
    )
    attacker = "203.0.113.66"
    for i in range(5):  # a new forged address each time: the limit still counts the attacker
        log_in = through_ingress(behind_ingress, [f"198.51.100.{i}", "10.0.0.1"], attacker)
        assert_error(log_in(f"victim_{i}", "wrong password"), 401, "invalid_credentials")
    assert_error(
        through_ingress(behind_ingress, ["192.0.2.50"], attacker)("trent", PASSWORD), 429, "too_many_attempts"
    )
    # another client, through the same Ingress pod, is not throttled by the attacker
    owner = through_ingress(behind_ingress, [], "192.0.2.50")
    assert_error(owner("trent", "wrong password"), 401, "invalid_credentials")
    assert owner("trent", PASSWORD).status_code == 201
