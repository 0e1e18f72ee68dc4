"""A WSGI app that passes every request on to another HTTP server and its answer back: under
``make run`` the gthread gunicorn is the one port clients see, and it hands the match long-polls to
the long-poll process this way (in Kubernetes the Ingress routes instead). A forwarded long-poll
holds a thread of the gthread worker, blocked on its socket without the GIL, and nothing else: no
database connection, no Python work until its answer comes.

Connections to the upstream are kept and reused, one request at a time each. A kept connection is
dropped once it has been idle for ``IDLE_SECONDS`` (below gunicorn's 5 s keep-alive), so the
upstream does not close it under a request. A reused connection that fails before any answer
(closed meanwhile all the same) is retried once on a fresh one when the request may be repeated:
a read, or a request with an ``Idempotency-Key`` (which the upstream answers once). Any other
request may have been served before the connection broke, so it is not sent twice: like a
request the upstream does not answer at all (restarting), it gets 503 ``unavailable`` in the one
error shape, and its client retries.

A match stream (Server-Sent Events) is relayed as it comes, chunk by chunk, on a connection of its
own; it holds a thread of the gthread worker for as long as it is open (blocked on its socket, as a
forwarded long-poll). The upstream's heartbeats keep that socket under ``TIMEOUT_SECONDS`` of
silence. The client's socket is watched meanwhile (``libs.web.departure``): once the client closes
its connection, the upstream connection is shut down at once, so the upstream sees the client leave
as it happens, not at its next writes.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
import time
from collections.abc import Iterable, Iterator
from typing import Any

from libs.web import departure
from libs.web.long_polls import is_stream

IDLE_SECONDS = 2.0
TIMEOUT_SECONDS = 90.0  # longer than any request the upstream serves
KEEP = 256  # idle connections kept at most
CHUNK = 65536  # bytes of a relayed stream read at most at once
# Hop-by-hop headers (RFC 9110 7.6.1): never passed on.
HOP_BY_HOP = frozenset(
    {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer",
     "transfer-encoding", "upgrade"}
)  # fmt: skip
_STALE = (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError)


class Forwarder:
    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self._idle: list[tuple[http.client.HTTPConnection, float]] = []
        self._lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        path = environ.get("RAW_URI") or _path(environ)
        body = _body(environ)
        headers = _request_headers(environ)
        if is_stream(environ.get("PATH_INFO", "")):
            return self._relay(environ, path, body, headers, start_response)
        try:
            status, reason, answer_headers, content = self._exchange(
                environ["REQUEST_METHOD"], path, body, headers
            )
        except OSError:
            return _unavailable(start_response)
        start_response(f"{status} {reason}", answer_headers)
        return [content]

    def _exchange(
        self, method: str, path: str, body: bytes | None, headers: dict[str, str]
    ) -> tuple[int, str, list[tuple[str, str]], bytes]:
        conn, reused = self._connection()
        try:
            response = _send(conn, method, path, body, headers)
        except _STALE:
            conn.close()
            if not reused or not _repeatable(method, headers):
                raise
            conn, reused = self._new(), False
            response = _send(conn, method, path, body, headers)
        except BaseException:
            conn.close()
            raise
        content = response.read()
        kept = [(k, v) for k, v in response.getheaders() if k.lower() not in HOP_BY_HOP]
        if response.will_close:
            conn.close()
        else:
            self._release(conn)
        return response.status, response.reason, kept, content

    def _relay(
        self,
        environ: dict[str, Any],
        path: str,
        body: bytes | None,
        headers: dict[str, str],
        start_response: Any,
    ) -> Iterable[bytes]:
        """A stream, passed on frame by frame as it comes, on a connection of its own that is closed
        when either side ends it (never kept: it ends with the stream)."""
        conn = self._new()
        try:
            response = _send(conn, environ["REQUEST_METHOD"], path, body, headers)
        except OSError:
            conn.close()
            return _unavailable(start_response)
        kept = [(k, v) for k, v in response.getheaders() if k.lower() not in HOP_BY_HOP]
        start_response(f"{response.status} {response.reason}", kept)
        relayed = _Relayed(conn, response)
        relayed.watch = departure.watch(environ, relayed.client_left)
        return relayed

    def _connection(self) -> tuple[http.client.HTTPConnection, bool]:
        now = time.monotonic()
        with self._lock:
            while self._idle:
                conn, since = self._idle.pop()
                if now - since < IDLE_SECONDS:
                    return conn, True
                conn.close()
        return self._new(), False

    def _new(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT_SECONDS)

    def _release(self, conn: http.client.HTTPConnection) -> None:
        with self._lock:
            if len(self._idle) < KEEP:
                self._idle.append((conn, time.monotonic()))
                return
        conn.close()


class _Relayed:
    """The body of a relayed stream: each chunk as it arrives; ``close`` (the client left, or the
    stream ended) closes the upstream connection, so the upstream sees the client leave."""

    def __init__(self, conn: http.client.HTTPConnection, response: http.client.HTTPResponse) -> None:
        self.conn = conn
        self.response = response
        self.watch: departure.Watch | None = None

    def client_left(self) -> None:
        """Shut the upstream connection down (from the watch's thread): the upstream sees its client
        leave, and the read this relay blocks on returns."""
        sock = self.conn.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def __iter__(self) -> Iterator[bytes]:
        try:
            while chunk := self.response.read1(CHUNK):
                yield chunk
        except (OSError, http.client.HTTPException):  # the upstream went away: the client resumes
            return

    def close(self) -> None:
        if self.watch is not None:
            self.watch.stop()
        self.conn.close()


def _repeatable(method: str, headers: dict[str, str]) -> bool:
    return method in {"GET", "HEAD", "OPTIONS"} or "Idempotency-Key" in headers


def _send(
    conn: http.client.HTTPConnection, method: str, path: str, body: bytes | None, headers: dict[str, str]
) -> http.client.HTTPResponse:
    conn.request(method, path, body, headers)
    return conn.getresponse()


def _path(environ: dict[str, Any]) -> str:
    query = environ.get("QUERY_STRING")
    path = environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "")
    return f"{path}?{query}" if query else path


def _body(environ: dict[str, Any]) -> bytes | None:
    length = environ.get("CONTENT_LENGTH")
    if not length:
        return None
    return bytes(environ["wsgi.input"].read(int(length)))


def _request_headers(environ: dict[str, Any]) -> dict[str, str]:
    headers = {
        key[5:].replace("_", "-").title(): value
        for key, value in environ.items()
        if key.startswith("HTTP_") and key[5:].replace("_", "-").lower() not in HOP_BY_HOP
    }
    for key in ("CONTENT_TYPE", "CONTENT_LENGTH"):
        if environ.get(key):
            headers[key.replace("_", "-").title()] = environ[key]
    return headers


def _unavailable(start_response: Any) -> list[bytes]:
    body = json.dumps(
        {"error": {"code": "unavailable", "message": "The service is starting; retry shortly."}}
    ).encode()
    start_response(
        "503 Service Unavailable",
        [("Content-Type", "application/json"), ("Content-Length", str(len(body))), ("Retry-After", "1")],
    )
    return [body]
