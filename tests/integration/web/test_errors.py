"""Every bad input is a 4xx in the one error shape, and nothing is written."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from flask.testing import FlaskClient

from tests.integration.web.shape import assert_error

GOOD = {"name": "lamp"}


@pytest.fixture
def nothing_written(counts: Callable[[], dict[str, int]]):  # type: ignore[no-untyped-def]
    before = counts()
    yield
    assert counts() == before


def test_a_good_request_writes_a_row_and_an_event(client: FlaskClient, counts) -> None:  # type: ignore[no-untyped-def]
    before = counts()
    resp = client.post("/v1/things", json=GOOD)
    assert resp.status_code == 201, resp.get_json()
    assert resp.get_json()["name"] == "lamp"
    after = counts()
    assert after["things"] == before["things"] + 1
    assert after["events"] == before["events"] + 1


@pytest.mark.parametrize(
    "body",
    [b"{", b'{"name": "x",}', b"not json", b'{"name": "\xff\xfe"}', b'{"name": "lamp"} {}'],
    ids=["truncated", "trailing-comma", "text", "invalid-utf8", "two-documents"],
)
@pytest.mark.usefixtures("nothing_written")
def test_malformed_json_is_400(client: FlaskClient, body: bytes) -> None:
    resp = client.post("/v1/things", data=body, content_type="application/json")
    assert_error(resp, 400, "malformed_json")


@pytest.mark.usefixtures("nothing_written")
def test_pathologically_deep_json_is_400_not_a_crash(make_app) -> None:  # type: ignore[no-untyped-def]
    client = make_app(max_body_bytes=1_000_000).test_client()
    body = b"[" * 100_000 + b"]" * 100_000
    assert_error(client.post("/v1/things", data=body, content_type="application/json"), 400, "malformed_json")


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]
)
@pytest.mark.usefixtures("nothing_written")
def test_a_body_that_is_not_json_is_415(client: FlaskClient, content_type: str) -> None:
    resp = client.post("/v1/things", data=b'{"name": "lamp"}', content_type=content_type)
    assert_error(resp, 415, "unsupported_media_type")


@pytest.mark.usefixtures("nothing_written")
def test_unknown_fields_are_rejected(client: FlaskClient) -> None:
    resp = client.post("/v1/things", json={"name": "lamp", "colour": "red"})
    error = assert_error(resp, 422, "validation_error")
    assert error["details"]["fields"]["json"]["colour"] == ["Unknown field."]


@pytest.mark.parametrize(
    "body",
    [
        {"name": 12},
        {"name": "lamp", "count": "many"},
        {"name": "lamp", "count": 1.5},
        {"name": "lamp", "count": "2"},
        {"name": "lamp", "count": True},
        {"name": "lamp", "count": 99},
        {"name": ""},
        {"name": None},
        {},
        [],
        ["name", "lamp"],
        "lamp",
        42,
        None,
    ],
    ids=lambda b: repr(b)[:30],
)
@pytest.mark.usefixtures("nothing_written")
def test_wrong_types_and_missing_fields_are_422(client: FlaskClient, body: object) -> None:
    resp = client.post("/v1/things", json=body)
    error = assert_error(resp, 422, "validation_error")
    assert error["details"]["fields"]


@pytest.mark.usefixtures("nothing_written")
def test_an_empty_body_is_a_validation_error(client: FlaskClient) -> None:
    resp = client.post("/v1/things")
    assert_error(resp, 422, "validation_error")


@pytest.mark.usefixtures("nothing_written")
def test_an_oversize_body_is_413(client: FlaskClient) -> None:
    resp = client.post("/v1/things", json={"name": "x" * 5000})
    assert_error(resp, 413, "payload_too_large")


@pytest.mark.usefixtures("nothing_written")
def test_an_oversize_chunked_body_is_413(client: FlaskClient) -> None:
    """No Content-Length (chunked, as gunicorn passes it): the limit applies while reading."""
    body = b'{"name": "' + b"x" * 5000 + b'"}'
    environ = {"wsgi.input": io.BytesIO(body), "wsgi.input_terminated": True, "CONTENT_LENGTH": ""}
    resp = client.post(
        "/v1/things",
        headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
        environ_overrides=environ,
    )
    assert_error(resp, 413, "payload_too_large")


def test_unknown_path_is_404(client: FlaskClient) -> None:
    assert_error(client.get("/v1/nowhere"), 404, "not_found")
    assert_error(client.post("/nowhere", json={}), 404, "not_found")


def test_wrong_method_is_405_with_allow(client: FlaskClient) -> None:
    resp = client.delete("/v1/things")
    assert_error(resp, 405, "method_not_allowed")
    assert "POST" in resp.headers["Allow"]


def test_named_errors_keep_their_code_and_details(client: FlaskClient) -> None:
    error = assert_error(client.post("/v1/conflict"), 409, "thing_conflict")
    assert error["details"] == {"hint": "try another"}


def test_an_unexpected_exception_is_a_logged_500_in_the_same_shape(client: FlaskClient) -> None:
    # The one deliberate 500 of the suite: it checks what a bug looks like to a client.
    error = assert_error(client.get("/v1/bug"), 500, "internal_error")
    assert "deliberate" not in error["message"]  # no internals leak


def test_request_id_is_echoed_or_made(client: FlaskClient) -> None:
    resp = client.get("/healthz", headers={"X-Request-Id": "abc-123"})
    assert resp.headers["X-Request-Id"] == "abc-123"
    made = client.get("/healthz", headers={"X-Request-Id": "bad id with spaces"}).headers["X-Request-Id"]
    assert made and made != "bad id with spaces"
    other = client.get("/v1/nowhere").headers["X-Request-Id"]
    assert all(len(i) == 32 and set(i) <= set("0123456789abcdef") for i in (made, other)) and made != other


def test_query_strings_are_validated_and_unknown_parameters_rejected(client: FlaskClient) -> None:
    assert client.get("/v1/search?q=lamp&limit=3").get_json() == {"q": "lamp", "limit": 3}
    error = assert_error(client.get("/v1/search?q=lamp&colour=red"), 422, "validation_error")
    assert error["details"]["fields"]["query"]["colour"] == ["Unknown field."]
    assert_error(client.get("/v1/search?q=lamp&limit=many"), 422, "validation_error")
    assert_error(client.get("/v1/search"), 422, "validation_error")


def test_nul_characters_in_the_url_are_400(client: FlaskClient) -> None:
    assert_error(client.get("/v1/search?q=a%00b"), 400, "invalid_text")
    assert_error(client.get("/v1/search?q%00=ab"), 400, "invalid_text")
    assert_error(client.get("/v1/what%00ever"), 400, "invalid_text")
