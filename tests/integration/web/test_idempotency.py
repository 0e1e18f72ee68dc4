"""Idempotency-Key: a retry returns the first response; concurrent retries apply once."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable

from flask import Flask
from flask.testing import FlaskClient

from libs.web import issue_token, purge_idempotency_keys
from tests.integration.web.conftest import SECRET
from tests.integration.web.shape import assert_error


def key_header(key: str, player: uuid.UUID | None = None) -> dict[str, str]:
    headers = {"Idempotency-Key": key}
    if player:
        headers["Authorization"] = f"Bearer {issue_token(SECRET, player, 600).token}"
    return headers


def test_a_retry_returns_the_first_response_and_applies_once(
    client: FlaskClient, counts: Callable[[], dict[str, int]]
) -> None:
    before = counts()
    first = client.post("/v1/things", json={"name": "lamp"}, headers=key_header("k-1"))
    again = client.post("/v1/things", json={"name": "lamp"}, headers=key_header("k-1"))
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    after = counts()
    assert after["things"] == before["things"] + 1
    assert after["events"] == before["events"] + 1
    assert after["idempotency"] == before["idempotency"] + 1


def test_json_formatting_does_not_change_the_fingerprint(client: FlaskClient) -> None:
    first = client.post("/v1/things", json={"name": "lamp", "count": 2}, headers=key_header("k-fmt"))
    again = client.post(
        "/v1/things",
        data=b'{ "count" : 2,\n "name": "lamp" }',
        content_type="application/json",
        headers=key_header("k-fmt"),
    )
    assert again.get_json() == first.get_json()


def test_the_same_key_with_another_body_is_422_and_writes_nothing(
    client: FlaskClient, counts: Callable[[], dict[str, int]]
) -> None:
    client.post("/v1/things", json={"name": "lamp"}, headers=key_header("k-2"))
    before = counts()
    resp = client.post("/v1/things", json={"name": "chair"}, headers=key_header("k-2"))
    assert_error(resp, 422, "idempotency_key_reused")
    assert counts() == before


def test_keys_are_scoped_per_player(client: FlaskClient, counts: Callable[[], dict[str, int]]) -> None:
    alice, bob = uuid.uuid4(), uuid.uuid4()
    a = client.post("/v1/my-things", json={"name": "lamp"}, headers=key_header("shared", alice))
    b = client.post("/v1/my-things", json={"name": "lamp"}, headers=key_header("shared", bob))
    assert a.status_code == b.status_code == 201
    assert a.get_json()["id"] != b.get_json()["id"]
    again = client.post("/v1/my-things", json={"name": "lamp"}, headers=key_header("shared", alice))
    assert again.get_json() == a.get_json()


def test_a_failed_request_does_not_burn_the_key(
    client: FlaskClient, counts: Callable[[], dict[str, int]]
) -> None:
    before = counts()
    bad = client.post("/v1/things", json={"name": "lamp", "extra": 1}, headers=key_header("k-3"))
    assert_error(bad, 422, "validation_error")
    assert counts() == before
    good = client.post("/v1/things", json={"name": "lamp"}, headers=key_header("k-3"))
    assert good.status_code == 201


def test_bad_keys_are_400(client: FlaskClient, counts: Callable[[], dict[str, int]]) -> None:
    before = counts()
    for key in ("", "has space", "x" * 256, "tab\tkey"):
        resp = client.post("/v1/things", json={"name": "lamp"}, headers={"Idempotency-Key": key})
        assert_error(resp, 400, "invalid_idempotency_key")
    assert counts() == before


def test_fifty_concurrent_identical_posts_apply_once(
    app: Flask, counts: Callable[[], dict[str, int]]
) -> None:
    before = counts()
    player = uuid.uuid4()
    headers = key_header("concurrent-key", player)
    body = {"name": "lamp", "delay_ms": 100}  # the first holds its transaction open a while
    barrier = threading.Barrier(50)
    results: list[tuple[int, dict[str, object]]] = []
    replayed: list[bool] = []
    lock = threading.Lock()

    def post() -> None:
        client = app.test_client()
        barrier.wait()
        resp = client.post("/v1/my-things", json=body, headers=headers)
        with lock:
            results.append((resp.status_code, resp.get_json()))
            replayed.append(resp.headers.get("Idempotent-Replayed") == "true")

    threads = [threading.Thread(target=post) for _ in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(results) == 50
    assert {status for status, _ in results} == {201}, results
    assert len({body["id"] for _, body in results}) == 1  # type: ignore[index]
    assert replayed.count(False) == 1  # one request ran the view, 49 got its stored response
    after = counts()
    assert after["things"] == before["things"] + 1
    assert after["events"] == before["events"] + 1


def test_requests_without_a_key_are_not_deduplicated(
    client: FlaskClient, counts: Callable[[], dict[str, int]]
) -> None:
    before = counts()
    client.post("/v1/things", json={"name": "lamp"})
    client.post("/v1/things", json={"name": "lamp"})
    assert counts()["things"] == before["things"] + 2


def test_old_records_can_be_purged(client: FlaskClient, pool, web_schema: str, counts) -> None:  # type: ignore[no-untyped-def]
    client.post("/v1/things", json={"name": "lamp"}, headers=key_header("old-key"))
    assert purge_idempotency_keys(pool, web_schema, older_than_seconds=3600) == 0
    assert purge_idempotency_keys(pool, web_schema, older_than_seconds=0) >= 1
    assert counts()["idempotency"] == 0
