"""A lean HTTP/1.1 keep-alive JSON client for the benchmarks.

The benchmarks share the machine's cores with the server they measure, so the client must cost
little: ``requests`` spent about as much CPU per request as the server did (1.3 ms), which the
server then lacked. This one is the standard library's ``http.client`` over one persistent
connection, reopened after an error.
"""

from __future__ import annotations

import http.client
import json
from typing import Any
from urllib.parse import urlsplit

# What a request on a kept-alive connection that the server has since closed meets. Retrying it is
# safe here: the match commands carry expected_version, so a repeat is a 409, never a second move.
_CLOSED_BY_SERVER = (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected)


class Reply:
    __slots__ = ("body", "status")

    def __init__(self, status: int, body: bytes) -> None:
        self.status = status
        self.body = body

    def json(self) -> Any:
        return json.loads(self.body)


class Client:
    """One keep-alive connection to ``base_url``, sending ``Authorization: Bearer <token>`` (or the
    token a request names: one connection may serve several players)."""

    def __init__(self, base_url: str, token: str | None = None, timeout: float = 30.0) -> None:
        parts = urlsplit(base_url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.timeout = timeout
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._conn: http.client.HTTPConnection | None = None

    def get(self, path: str, token: str | None = None) -> Reply:
        return self.request("GET", path, token=token)

    def post(self, path: str, payload: Any, token: str | None = None) -> Reply:
        return self.request("POST", path, json.dumps(payload).encode(), token=token)

    def request(self, method: str, path: str, body: bytes | None = None, token: str | None = None) -> Reply:
        headers = {"Authorization": f"Bearer {token}"} if token else dict(self.headers)
        if body is not None:
            headers["Content-Type"] = "application/json"
        conn = self._conn
        self._conn = None
        if conn is not None:
            try:
                return self._exchange(conn, method, path, body, headers)
            except _CLOSED_BY_SERVER:
                pass  # the server closed the idle connection (keep-alive timeout): once more, anew
        fresh = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        return self._exchange(fresh, method, path, body, headers)

    def _exchange(
        self,
        conn: http.client.HTTPConnection,
        method: str,
        path: str,
        body: bytes | None,
        headers: dict[str, str],
    ) -> Reply:
        try:
            conn.request(method, path, body, headers)
            response = conn.getresponse()
            reply = Reply(response.status, response.read())
        except (OSError, http.client.HTTPException):
            conn.close()
            raise
        if response.will_close:
            conn.close()
        else:
            self._conn = conn
        return reply

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
