"""The one port of ``make run``: the gthread gunicorn passes ``GET /v1/matches/<id>/events``, as it
came, to the long-poll process (``libs/web/forward.py``) and serves every other request itself; the
long-poll process's psycopg waits cooperatively under gevent."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from werkzeug.test import Client

from libs.config import PROJECT_ROOT
from libs.devstack.ports import free_port
from libs.web.forward import Forwarder
from libs.web.long_polls import LongPollRouter


class _Echo(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as gunicorn

    def do_GET(self) -> None:
        self._answer()

    def do_POST(self) -> None:
        self._answer()

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = json.dumps(
            {
                "method": self.command,
                "path": self.path,
                "body": self.rfile.read(length).decode(),
                "authorization": self.headers.get("Authorization"),
                "connection": self.headers.get("Connection"),
            }
        ).encode()
        self.send_response(201 if self.command == "POST" else 200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Upstream", "yes")
        self.end_headers()
        self.wfile.write(body)
        if self.path == "/drop":  # closes the connection it said it would keep, as a timed-out keep-alive
            self.close_connection = True

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture()
def upstream() -> Iterator[ThreadingHTTPServer]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Echo)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def _local_app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"served here"]


def test_long_polls_are_passed_on_as_they_came_and_everything_else_is_served_here(
    upstream: ThreadingHTTPServer,
) -> None:
    client = Client(LongPollRouter(Forwarder("127.0.0.1", upstream.server_address[1]), _local_app))
    match = "/v1/matches/4b2d1a7e-0000-4000-8000-000000000000"
    assert client.post(f"{match}/commands", data="{}").get_data() == b"served here"
    assert client.get(match).get_data() == b"served here"

    headers = {"Authorization": "Bearer t", "Connection": "close"}
    poll = client.get(f"{match}/events?after=3&wait=25", headers=headers)
    assert poll.status_code == 200 and poll.headers["X-Upstream"] == "yes"
    seen = poll.get_json()
    assert seen["method"] == "GET" and seen["path"] == f"{match}/events?after=3&wait=25"
    assert seen["authorization"] == "Bearer t"
    assert seen["connection"] != "close"  # hop-by-hop headers are the forwarder's own


def test_a_forwarded_request_carries_its_body_and_status(upstream: ThreadingHTTPServer) -> None:
    client = Client(Forwarder("127.0.0.1", upstream.server_address[1]))
    command = client.post(
        "/v1/x/commands?x=1", data='{"type":"end_turn"}', headers={"Authorization": "Bearer t"}
    )
    assert command.status_code == 201 and command.headers["X-Upstream"] == "yes"
    seen = command.get_json()
    assert seen["method"] == "POST" and seen["path"] == "/v1/x/commands?x=1"
    assert seen["body"] == '{"type":"end_turn"}' and seen["authorization"] == "Bearer t"


def test_a_kept_connection_the_upstream_closed_is_retried_on_a_fresh_one_when_repeatable(
    upstream: ThreadingHTTPServer,
) -> None:
    forward = Forwarder("127.0.0.1", upstream.server_address[1])
    client = Client(forward)
    assert client.get("/drop").status_code == 200
    assert len(forward._idle) == 1  # kept: the answer did not say it would close
    assert client.get("/b").get_json()["path"] == "/b"
    assert client.get("/drop").status_code == 200
    assert client.post("/c", data="x", headers={"Idempotency-Key": "k"}).get_json()["path"] == "/c"
    assert client.get("/drop").status_code == 200
    assert client.post("/d", data="x").status_code == 503  # may have been served: never sent twice


def test_an_upstream_that_does_not_answer_is_503_in_the_one_error_shape() -> None:
    client = Client(Forwarder("127.0.0.1", free_port()))
    answer = client.get("/v1/wallet")
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"
    assert answer.get_json()["error"]["code"] == "unavailable"


def test_under_gevent_the_long_poll_app_waits_for_the_database_cooperatively() -> None:
    """psycopg picks its wait when first imported: after gevent's patching, as the gevent worker
    imports the app, it must not be the C wait that blocks every greenlet of the worker."""
    pytest.importorskip("gevent")
    script = (
        "from gevent import monkey; monkey.patch_all()\n"
        "import services.match.waits_wsgi, libs.gevent_conf as conf\n"
        "from psycopg import waiting\n"
        "conf.post_worker_init(None)\n"
        "print(waiting.wait.__name__)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=PROJECT_ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() != "wait_c"
