"""The match streams (Server-Sent Events) take the long-polls' way to the long-poll process: the
router sends ``/stream`` there (and ``/stream-tickets`` not), the Ingress path matches the same,
and the forwarder of ``make run`` relays a stream frame by frame as it comes, not once it ends, and
lets the upstream see the client leave."""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from libs.web.forward import Forwarder
from libs.web.long_polls import INGRESS_PATH, LongPollRouter, is_long_poll, is_stream, waits_for_the_match

MATCH = "/v1/matches/4b2d1a7e-0000-4000-8000-000000000000"


class _Streaming(BaseHTTPRequestHandler):
    """Sends one frame, waits for the test's go, sends another, then pings until the client leaves."""

    protocol_version = "HTTP/1.1"
    go = threading.Event()
    left = threading.Event()

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self._chunk(b"id: 1\ndata: {}\n\n")
        assert self.go.wait(10)
        self._chunk(b"id: 2\ndata: {}\n\n")
        try:
            for _ in range(200):
                self._chunk(b": ping\n\n")
                self.left.wait(0.05)
        except OSError:
            self.left.set()

    def _chunk(self, data: bytes) -> None:
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture()
def upstream() -> Iterator[ThreadingHTTPServer]:
    _Streaming.go.clear()
    _Streaming.left.clear()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Streaming)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    _Streaming.go.set()
    server.shutdown()
    server.server_close()


def test_streams_go_where_long_polls_go_and_their_tickets_do_not() -> None:
    for path in (f"{MATCH}/stream", f"{MATCH}/events"):
        assert waits_for_the_match(path) and re.match(INGRESS_PATH, path)  # nginx matches from the start
    assert is_stream(f"{MATCH}/stream") and not is_stream(f"{MATCH}/events")
    assert is_long_poll(f"{MATCH}/events") and not is_long_poll(f"{MATCH}/stream")
    for path in (f"{MATCH}/stream-tickets", f"{MATCH}/commands", f"{MATCH}/streams"):
        assert not waits_for_the_match(path) and not re.match(INGRESS_PATH, path)
    routed = LongPollRouter(lambda e, s: ["waits"], lambda e, s: ["rest"])
    assert routed({"PATH_INFO": f"{MATCH}/stream"}, None) == ["waits"]
    assert routed({"PATH_INFO": f"{MATCH}/stream-tickets"}, None) == ["rest"]


def test_the_forwarder_relays_a_stream_as_it_comes_and_closes_it_when_the_client_leaves(
    upstream: ThreadingHTTPServer,
) -> None:
    started: list[str] = []
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": f"{MATCH}/stream",
        "QUERY_STRING": "after=0",
        "HTTP_LAST_EVENT_ID": "0",
        "wsgi.input": None,
    }
    body = Forwarder("127.0.0.1", upstream.server_address[1])(environ, lambda s, h: started.append(s))
    assert started == ["200 OK"]
    chunks = iter(body)
    assert next(chunks) == b"id: 1\ndata: {}\n\n"  # before the upstream sent the second frame
    _Streaming.go.set()
    assert next(chunks) == b"id: 2\ndata: {}\n\n"
    body.close()  # type: ignore[attr-defined]
    assert _Streaming.left.wait(10), "the upstream did not see the client leave"


def test_the_forwarder_shuts_the_upstream_down_as_soon_as_its_client_closes_the_connection(
    upstream: ThreadingHTTPServer,
) -> None:
    server_side, client_side = socket.socketpair()  # the gthread worker's client socket, and the page's
    environ: dict[str, Any] = {"REQUEST_METHOD": "GET", "PATH_INFO": f"{MATCH}/stream", "wsgi.input": None}
    environ["gunicorn.socket"] = server_side
    body = Forwarder("127.0.0.1", upstream.server_address[1])(environ, lambda s, h: None)
    chunks = iter(body)
    assert next(chunks) == b"id: 1\ndata: {}\n\n"
    _Streaming.go.set()  # the upstream pings on, until a write to the relay fails
    client_side.close()  # the page left; nothing is written to it, nothing closes the relay yet
    assert _Streaming.left.wait(10), "the upstream did not see the client leave"
    reading = time.monotonic()
    b"".join(chunks)  # what the relay had read before the shutdown, if anything
    assert time.monotonic() - reading < 5, "the relay went on reading the upstream"
    body.close()  # type: ignore[attr-defined]
    server_side.close()
