"""/healthz, /readyz (database and broker checks), /metrics, OpenAPI, JSON access logs."""

from __future__ import annotations

import io
import json
import logging
import socket
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from libs.devstack.ports import free_port
from libs.web.logs import JsonFormatter
from tests.integration.web.shape import assert_error


def test_healthz_answers(client: FlaskClient) -> None:
    resp = client.get("/healthz")
    assert resp.status_code == 200 and resp.get_json()["status"] == "ok"


def test_readyz_is_ready_with_the_database(client: FlaskClient) -> None:
    resp = client.get("/readyz")
    assert resp.status_code == 200, resp.get_json()
    assert resp.get_json()["checks"] == {"database": "ok"}


def test_readyz_fails_when_the_database_is_unreachable(make_app) -> None:  # type: ignore[no-untyped-def]
    app: Flask = make_app(database_url=f"postgresql://postgres@127.0.0.1:{free_port()}/arcana")
    error = assert_error(app.test_client().get("/readyz"), 503, "not_ready")
    assert error["details"]["checks"]["database"] != "ok"
    assert app.test_client().get("/healthz").status_code == 200  # the process itself is fine


@pytest.fixture
def listening_port() -> Iterator[int]:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    yield server.getsockname()[1]
    server.close()


def test_readyz_checks_the_broker_when_configured(make_app, listening_port: int) -> None:  # type: ignore[no-untyped-def]
    up: Flask = make_app(kafka_bootstrap_servers=f"127.0.0.1:{free_port()},127.0.0.1:{listening_port}")
    resp = up.test_client().get("/readyz")
    assert resp.status_code == 200 and resp.get_json()["checks"] == {"database": "ok", "kafka": "ok"}
    down: Flask = make_app(kafka_bootstrap_servers=f"127.0.0.1:{free_port()}")
    error = assert_error(down.test_client().get("/readyz"), 503, "not_ready")
    assert error["details"]["checks"]["database"] == "ok"
    assert error["details"]["checks"]["kafka"] != "ok"


def test_metrics_count_requests_by_service_endpoint_and_status(client: FlaskClient) -> None:
    client.post("/v1/things", json={"nope": 1})
    text = client.get("/metrics").get_data(as_text=True)
    assert (
        'arcana_http_requests_total{endpoint="/v1/things",method="POST",service="things",status="422"}'
        in text
    )
    assert "arcana_http_request_duration_seconds_bucket" in text


def test_each_request_counts_once_in_its_series(client: FlaskClient) -> None:
    """The series of an endpoint are made once per process and reused: every later request still
    counts (and is timed) once."""
    from prometheus_client import REGISTRY

    labels = {"service": "things", "method": "POST", "endpoint": "/v1/things", "status": "422"}

    def counted() -> tuple[float, float]:
        total = REGISTRY.get_sample_value("arcana_http_requests_total", labels) or 0.0
        timed = REGISTRY.get_sample_value("arcana_http_request_duration_seconds_count", labels) or 0.0
        return total, timed

    before = counted()
    for _ in range(3):
        client.post("/v1/things", json={"nope": 1})
    after = counted()
    assert (after[0] - before[0], after[1] - before[1]) == (3.0, 3.0)


def test_openapi_document_lists_the_paths(client: FlaskClient) -> None:
    resp = client.get("/v1/openapi/things.json")
    assert resp.status_code == 200
    doc = json.loads(resp.get_data())
    assert doc["openapi"].startswith("3.")
    assert {"/v1/things", "/v1/my-things", "/v1/whoami"} <= set(doc["paths"])
    post = doc["paths"]["/v1/my-things"]["post"]
    assert post["security"] == [{"bearerAuth": []}]
    assert any(p["name"] == "Idempotency-Key" for p in post["parameters"])
    assert "bearerAuth" in doc["components"]["securitySchemes"]


def test_one_json_access_log_line_per_request(client: FlaskClient) -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("arcana.web.access")
    logger.addHandler(handler)
    try:
        client.get("/v1/nowhere", headers={"X-Request-Id": "req-42"})
    finally:
        logger.removeHandler(handler)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert len(lines) == 1
    line = lines[0]
    assert line["method"] == "GET" and line["path"] == "/v1/nowhere" and line["status"] == 404
    assert line["request_id"] == "req-42" and line["duration_ms"] >= 0 and "player" in line


def test_a_database_outage_is_503_not_500(make_app, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    from libs.web import context

    monkeypatch.setattr(context, "POOL_TIMEOUT_SECONDS", 0.5)
    dead_url = f"postgresql://postgres@127.0.0.1:{free_port()}/arcana"
    app: Flask = make_app(database_url=dead_url)
    app.extensions["arcana"]._pool = None  # let the app open its own pool, on the dead URL
    try:
        resp = app.test_client().post("/v1/things", json={"name": "lamp"}, headers={"Idempotency-Key": "k"})
        assert_error(resp, 503, "service_unavailable")
        assert resp.headers["Retry-After"]
    finally:
        pool = app.extensions["arcana"]._pool
        if pool is not None:
            pool.close()
