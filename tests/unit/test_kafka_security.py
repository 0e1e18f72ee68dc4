"""How the bus's Kafka clients log in (``libs.bus.security``): plain by default, SASL from the
environment for a Kafka with users and ACLs."""

from __future__ import annotations

from pathlib import Path

import pytest

from libs.bus import security
from libs.config import InsecureSetting

VARIABLES = ("KAFKA_SECURITY_PROTOCOL", "KAFKA_SASL_MECHANISM", "KAFKA_SASL_USERNAME", "KAFKA_SASL_PASSWORD")


@pytest.fixture(autouse=True)
def _clean(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (*VARIABLES, "KAFKA_SASL_PASSWORD_FILE", "KAFKA_SSL_CAFILE"):
        monkeypatch.delenv(name, raising=False)


def test_nothing_set_is_a_plain_connection() -> None:
    assert security.client_options() == {}


def test_sasl_over_tls_with_the_password_from_a_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "password").write_text("s3cret\n")
    monkeypatch.setenv("KAFKA_SECURITY_PROTOCOL", "SASL_SSL")
    monkeypatch.setenv("KAFKA_SASL_USERNAME", "arcana-match")
    monkeypatch.setenv("KAFKA_SASL_PASSWORD_FILE", str(tmp_path / "password"))
    monkeypatch.setenv("KAFKA_SSL_CAFILE", "/run/secrets/kafka-ca/ca.crt")
    assert security.client_options() == {
        "security_protocol": "SASL_SSL",
        "sasl_mechanism": "SCRAM-SHA-512",
        "sasl_plain_username": "arcana-match",
        "sasl_plain_password": "s3cret",
        "ssl_cafile": "/run/secrets/kafka-ca/ca.crt",
    }


def test_sasl_without_credentials_or_an_unknown_protocol_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KAFKA_SECURITY_PROTOCOL", "SASL_SSL")
    with pytest.raises(InsecureSetting):
        security.client_options()
    monkeypatch.setenv("KAFKA_SECURITY_PROTOCOL", "sasl")
    with pytest.raises(InsecureSetting):
        security.client_options()
