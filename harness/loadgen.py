"""The benchmarks' load generator: every simulated player a coroutine of one asyncio loop, over one
aiohttp session, in this one process.

A thread per player (``harness/client.py``) cost about as much CPU as the server it measured: at
M = 500 live matches half of the machine's 16-17 ms per command was the benchmark's own 1,000
threads. A coroutine waiting on a socket costs nothing until its answer comes, and aiohttp's
parser is compiled, so the generator's share is small and printed apart from the server's
(``harness/cpu.py``).

How a player learns what happened while it waited is a ``Feed``: ``LongPollFeed`` asks
``GET /v1/matches/{id}/events?after=…&wait=…`` again after each answer, as the product's clients
without the event stream do; ``StreamFeed`` keeps ``GET /v1/matches/{id}/stream`` (Server-Sent
Events) open and hands over each batch with the state frame that follows it. Both say whose move it
is and with which legal commands; a feed whose ``Update`` does not (``awaiting`` None) makes the
player ask ``/legal-commands``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import aiohttp

from harness.client import Reply

# gunicorn closes a kept-alive connection after 5 s (--keep-alive 5): the generator drops its own
# sooner, so no request is sent on a connection the server is closing.
KEEPALIVE_SECONDS = 3.0
# What a request may meet when the server is slow, restarting or gone: counted, never fatal.
TRANSPORT_ERRORS = (aiohttp.ClientError, TimeoutError, OSError)


class Http:
    """One aiohttp session to ``base_url`` shared by every player of the loop: connections are
    pooled and kept alive, as many at once as requests in flight (no limit)."""

    def __init__(self, base_url: str, timeout: float = 60.0) -> None:
        self.base_url = base_url
        self.timeout = aiohttp.ClientTimeout(total=timeout)
        self._session: aiohttp.ClientSession | None = None

    @property
    def session(self) -> aiohttp.ClientSession:
        if self._session is None:  # made inside the running loop
            connector = aiohttp.TCPConnector(limit=0, keepalive_timeout=KEEPALIVE_SECONDS)
            self._session = aiohttp.ClientSession(
                self.base_url, connector=connector, timeout=self.timeout, auto_decompress=False
            )
        return self._session

    async def get(self, path: str, token: str | None = None, timeout: float | None = None) -> Reply:
        return await self.request("GET", path, token=token, timeout=timeout)

    async def post(self, path: str, payload: Any, token: str | None = None) -> Reply:
        return await self.request("POST", path, json.dumps(payload).encode(), token=token)

    async def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        *,
        token: str | None = None,
        timeout: float | None = None,
    ) -> Reply:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if body is not None:
            headers["Content-Type"] = "application/json"
        limit = self.timeout if timeout is None else aiohttp.ClientTimeout(total=timeout)
        async with self.session.request(method, path, data=body, headers=headers, timeout=limit) as r:
            return Reply(r.status, await r.read())

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None


@dataclass(frozen=True)
class Update:
    """What a feed returned: the events after the version asked for (none when the wait ran out),
    the match's version now, and, when the feed says it, whose move it is and the viewer's legal
    commands (None: ask ``/legal-commands``)."""

    events: list[dict[str, Any]]
    version: int
    awaiting: list[str] | None = None
    legal_commands: list[dict[str, Any]] | None = None


class Refused(Exception):
    """The server answered a feed's request with another status than 200."""

    def __init__(self, reply: Reply) -> None:
        super().__init__(f"{reply.status} {reply.body[:300]!r}")
        self.reply = reply


class Feed(Protocol):
    async def next(self, after: int, wait: int) -> Update:
        """The events after version ``after``, waiting up to ``wait`` s for the first of them."""
        ...

    async def close(self) -> None:
        """Let go of what the feed holds open (its player moves to another match)."""
        ...


class LongPollFeed:
    """``GET /events?after=…&wait=…``: one request per answer; its answer carries ``awaiting`` and
    the viewer's legal commands, so a player needs no other request to know its move."""

    def __init__(self, http: Http, match: str, token: str) -> None:
        self.http, self.match, self.token = http, match, token

    async def next(self, after: int, wait: int) -> Update:
        path = f"/v1/matches/{self.match}/events?after={after}&wait={wait}"
        reply = await self.http.get(path, self.token, timeout=wait + 30)
        if reply.status != 200:
            raise Refused(reply)
        body = reply.json()
        return Update(body["events"], body["version"], body.get("awaiting"), body.get("legal_commands"))

    async def close(self) -> None:
        return None


class StreamFeed:
    """``GET /v1/matches/{id}/stream`` (Server-Sent Events): one response kept open, read by a task of
    its own into a queue of updates, one per batch (its events, then the ``state`` frame that says
    whose move it is). A stream that ends (the server's ``max_seconds``, a restart) is opened again
    after the last version seen; a 204 says the match has ended and the player has all of it."""

    def __init__(self, http: Http, match: str, token: str) -> None:
        self.http, self.match, self.token = http, match, token
        self.updates: asyncio.Queue[Update | BaseException] = asyncio.Queue()
        self.reader: asyncio.Task[None] | None = None
        self.seen = 0

    async def next(self, after: int, wait: int) -> Update:
        if self.reader is None or self.reader.done():
            self.seen = max(self.seen, after)
            self.reader = asyncio.create_task(self._read())
        events: list[dict[str, Any]] = []
        try:
            while True:
                got = await asyncio.wait_for(self.updates.get(), wait)
                if isinstance(got, BaseException):
                    raise got
                events += [e for e in got.events if e["version"] > after]
                if got.version > after or got.awaiting == []:
                    return Update(events, got.version, got.awaiting, got.legal_commands)
        except TimeoutError:
            return Update(events, after)

    async def _read(self) -> None:
        path = f"/v1/matches/{self.match}/stream?after={self.seen}"
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "text/event-stream"}
        try:
            no_limit = aiohttp.ClientTimeout(total=None, sock_read=None)
            async with self.http.session.get(path, headers=headers, timeout=no_limit) as r:
                if r.status == 204:  # ended, and nothing after ``seen``
                    await self.updates.put(Update([], self.seen, [], []))
                    return
                if r.status != 200:
                    raise Refused(Reply(r.status, await r.read()))
                await self._frames(r.content)
        except BaseException as exc:  # handed to the player; cancellation (close) ends quietly
            if not isinstance(exc, asyncio.CancelledError):
                await self.updates.put(exc)
            raise

    async def _frames(self, content: aiohttp.StreamReader) -> None:
        events: list[dict[str, Any]] = []
        while raw := await content.readuntil(b"\n\n"):
            kind, data = _frame(raw.decode())
            if kind == "message":
                events.append(json.loads(data))
            elif kind == "state":
                state = json.loads(data)
                self.seen = state["version"]
                await self.updates.put(
                    Update(events, state["version"], state["awaiting"], state["legal_commands"])
                )
                events = []

    async def close(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(BaseException):
                await self.reader


def _frame(raw: str) -> tuple[str, str]:
    """A Server-Sent Events frame's type (``message`` unless named; ``comment`` for a ping or the
    ``retry`` line) and its data."""
    kind, data = "comment", []
    for line in raw.splitlines():
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "event":
            kind = value
        elif name == "data":
            data.append(value)
            kind = "message" if kind == "comment" else kind
    return kind, "\n".join(data)


FeedFactory = Callable[[Http, str, str], Feed]
FEEDS: dict[str, FeedFactory] = {"long-poll": LongPollFeed, "stream": StreamFeed}
