"""The gateway serves the browser client (/play) and the API reference (/docs) from the project's own
files: the pages with a Content-Security-Policy allowing only this origin, Swagger UI from the
pinned wheel, the list of every service's OpenAPI document, and nothing outside those folders."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from werkzeug.test import Client

from libs import kit
from libs.webclient import PLAY_CSP, STATIC


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    mp = pytest.MonkeyPatch()
    mp.setenv("DATABASE_URL", "postgresql://nobody@127.0.0.1:9/none")  # never opened: the pool is lazy
    mp.setenv("ARCANA_TOKEN_SECRET", "webclient-serving-" + "k" * 40)
    mp.setenv("ARCANA_SERVICES", "accounts")  # one service's pod still documents them all
    from services import wsgi

    try:
        yield Client(wsgi.build_app())
    finally:
        mp.undo()


def test_play_serves_the_client_with_a_strict_policy(client: Client) -> None:
    assert client.get("/play").status_code == 308
    page = client.get("/play/")
    assert page.status_code == 200 and b'<script type="module" src="js/main.js">' in page.data
    policy = page.headers["Content-Security-Policy"]
    assert (
        "default-src 'self'" in policy
        and "script-src 'self';" in policy
        and "frame-ancestors 'none'" in policy
    )
    module = client.get("/play/js/views/table.js")
    assert module.status_code == 200 and module.mimetype in ("text/javascript", "application/javascript")


def test_every_module_of_the_client_is_served_under_the_policy_and_keeps_to_it(client: Client) -> None:
    """Every module (the line's and the arena's screens included) comes with the strict policy, and
    none writes markup or inline styles the policy would refuse: elements are built with DOM calls
    (``ui.h``), never from HTML strings, and no ``style`` attribute is set (CSS classes instead)."""
    play = STATIC / "play"
    modules = sorted(play.glob("js/**/*.js"))
    assert {"js/views/line.js", "js/views/fight.js", "js/views/arena.js"} <= {
        m.relative_to(play).as_posix() for m in modules
    }
    for module in modules:
        served = client.get(f"/play/{module.relative_to(play).as_posix()}")
        assert served.status_code == 200 and served.headers["Content-Security-Policy"] == PLAY_CSP
        source = module.read_text()
        for refused in (
            "innerHTML",
            "outerHTML",
            "insertAdjacentHTML",
            "document.write",
            'setAttribute("style"',
        ):
            assert refused not in source, f"{module.name} uses {refused}"
        assert not re.search(r"\bstyle:\s*[\"'`]", source), f"{module.name} sets a style attribute"
    html = (play / "index.html").read_text()
    assert "<style" not in html and " style=" not in html and "<script>" not in html


def test_docs_serve_swagger_ui_from_the_wheel_over_every_service_document(client: Client) -> None:
    assert client.get("/docs/").status_code == 200
    bundle = client.get("/docs/swagger-ui-bundle.js")
    assert bundle.status_code == 200 and len(bundle.data) > 100_000
    listed = json.loads(client.get("/docs/services.json").data)
    assert [s["name"] for s in listed] == kit.service_names()
    assert all(s["url"] == f"/v1/openapi/{s['name']}.json" for s in listed)


@pytest.mark.parametrize(
    "path", ["/play/../__init__.py", "/play/%2e%2e/__init__.py", "/docs/..%2F__init__.py", "/play/nothing.js"]
)
def test_nothing_outside_the_static_folders_is_served(client: Client, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert json.loads(response.data)["error"]["code"]
