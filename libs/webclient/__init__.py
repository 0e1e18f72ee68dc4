"""The browser client at ``/play`` and the API reference at ``/docs``, as static files the gateway
serves on the API's own port (``install``). The client is plain ES modules built only on the public
REST API; the reference is Swagger UI (its files come with the pinned ``swagger-ui-bundle`` wheel)
over the OpenAPI documents the services serve at ``/v1/openapi/<service>.json``. Nothing is fetched
from elsewhere at run time.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Sequence
from pathlib import Path

from flask import Blueprint, Flask, Response, redirect, send_from_directory
from werkzeug.wrappers import Response as BaseResponse

STATIC = Path(__file__).parent / "static"
PLAY_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
DOCS_CSP = (  # Swagger UI sets inline styles and shows data: images
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)


def swagger_ui_dir() -> Path:
    """The Swagger UI distribution inside the installed ``swagger-ui-bundle`` wheel."""
    spec = importlib.util.find_spec("swagger_ui_bundle")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("swagger-ui-bundle is not installed (requirements.txt)")
    vendor = Path(next(iter(spec.submodule_search_locations))) / "vendor"
    return max(vendor.glob("swagger-ui-*"))


def blueprint(services: Sequence[str]) -> Blueprint:
    blp = Blueprint("webclient", __name__)
    names = sorted(services)

    @blp.get("/play")
    def play_root() -> BaseResponse:
        return redirect("/play/", code=308)  # relative module URLs resolve under /play/

    @blp.get("/play/")
    def play_index() -> Response:
        return _static(STATIC / "play", "index.html", PLAY_CSP)

    @blp.get("/play/<path:name>")
    def play_file(name: str) -> Response:
        return _static(STATIC / "play", name, PLAY_CSP)

    @blp.get("/docs")
    def docs_root() -> BaseResponse:
        return redirect("/docs/", code=308)

    @blp.get("/docs/")
    def docs_index() -> Response:
        return _static(STATIC / "docs", "index.html", DOCS_CSP)

    @blp.get("/docs/services.json")
    def docs_services() -> Response:
        body = [{"name": n, "url": f"/v1/openapi/{n}.json"} for n in names]
        return Response(json.dumps(body), mimetype="application/json")

    @blp.get("/docs/<name>")
    def docs_file(name: str) -> Response:
        if (STATIC / "docs" / name).is_file():
            return _static(STATIC / "docs", name, DOCS_CSP)
        return _static(swagger_ui_dir(), name, DOCS_CSP)

    return blp


def _static(folder: Path, name: str, csp: str) -> Response:
    response = send_from_directory(folder, name, max_age=0)  # 404 for anything outside ``folder``
    response.headers["Content-Security-Policy"] = csp
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def install(app: Flask, services: Sequence[str]) -> None:
    """Serve ``/play`` and ``/docs`` from ``app`` (the gateway)."""
    app.register_blueprint(blueprint(services))
