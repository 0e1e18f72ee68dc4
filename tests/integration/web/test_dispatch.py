"""One port, several apps, routed by path prefix; unknown paths get the error shape."""

from __future__ import annotations

from flask import Flask
from werkzeug.test import Client

from libs.config import Settings
from libs.web import PrefixDispatcher, base_app
from tests.integration.web.shape import assert_error


def _named(name: str, settings: Settings) -> Flask:
    app = base_app(name, schema=None, settings=settings)

    @app.get("/<path:rest>")
    def echo(rest: str) -> dict[str, str]:
        return {"app": name, "path": rest}

    return app


def test_routes_by_prefix_and_falls_back(settings: Settings) -> None:
    gateway = base_app("gateway", schema=None, settings=settings)
    a, b = _named("a", settings), _named("b", settings)
    dispatcher = PrefixDispatcher(gateway, [("/v1/a", a), ("/v1/a/deep", b), ("/v1/b/", b)])
    client = Client(dispatcher)
    assert client.get("/v1/a/x").json == {"app": "a", "path": "v1/a/x"}
    assert client.get("/v1/a/deep/y").json == {"app": "b", "path": "v1/a/deep/y"}  # longest prefix
    assert client.get("/v1/b/z").json == {"app": "b", "path": "v1/b/z"}
    resp = client.get("/v1/ab")  # not a prefix match: a path segment must follow
    assert resp.status_code == 404 and resp.json["error"]["code"] == "not_found"
    assert client.get("/healthz").json["service"] == "gateway"


def test_unknown_paths_get_the_error_shape(settings: Settings) -> None:
    dispatcher = PrefixDispatcher(base_app("gateway", schema=None, settings=settings), [])
    resp = Client(dispatcher).post("/nothing/here", json={})
    assert resp.status_code == 404
    assert resp.json == {"error": {"code": "not_found", "message": resp.json["error"]["message"]}}


def test_assert_error_helper_accepts_flask_responses(settings: Settings) -> None:
    app = base_app("gateway", schema=None, settings=settings)
    assert_error(app.test_client().get("/missing"), 404, "not_found")
