"""The match stream (Server-Sent Events) through ``make run``'s one port, served by the long-poll
process (``ARCANA_WAITS=on``: gevent), as real processes:

- the long-poll process is SIGKILLed under an open stream; the match moves on meanwhile; once it is
  back, a reconnection with ``Last-Event-ID`` gets exactly the events after that id (none twice,
  none missing: the long-poll's projection of them);
- a stream with nothing to tell stays open through an idle minute on its heartbeats, and still
  delivers the next event;
- a client that leaves (its socket closed) stops counting as present at once, not at a later
  heartbeat: the relay of the one port and the long-poll process both notice the connection close.
"""

from __future__ import annotations

import http.client
import socket
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from harness.polls import TIMEKEEPERS, call, move, new_match
from harness.stack import Stack, waits_apart
from services.match.usecases.polls import TOUCH_EVERY_SECONDS
from tests.sse import Frame, SseReader, messages

pytestmark = pytest.mark.e2e

# seconds (ARCANA_STREAM_HEARTBEAT_SECONDS of this stack): longer than the presence test watches, so
# a client noticed only at a later write would stay present there
HEARTBEAT = 30


@pytest.fixture(scope="module")
def stack(postgres_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    root = tmp_path_factory.mktemp("match-stream")
    env = {"ARCANA_STREAM_HEARTBEAT_SECONDS": str(HEARTBEAT)}
    with waits_apart(postgres_url, None, root, env) as s:
        yield s


class _Stream:
    def __init__(self, conn: http.client.HTTPConnection, response: http.client.HTTPResponse) -> None:
        self.conn = conn
        self.frames = SseReader(iter(lambda: response.read1(65536), b""))

    def until_version(self, version: int) -> list[Frame]:
        got: list[Frame] = []
        while not got or got[-1].json["version"] < version:
            got += self.frames.until("state")
        return got


def _open(stack: Stack, match: str, player: str, last_event_id: int | None = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=4 * HEARTBEAT)
    headers = {"Authorization": f"Bearer {stack.token(player)}", "Accept": "text/event-stream"}
    if last_event_id is not None:
        headers["Last-Event-ID"] = str(last_event_id)
    conn.request("GET", f"/v1/matches/{match}/stream", headers=headers)
    response = conn.getresponse()
    if response.status != 200:
        response.read()
        conn.close()
        return response.status, None
    assert response.getheader("Content-Type", "").startswith("text/event-stream")
    return 200, _Stream(conn, response)


def _watched_match(stack: Stack) -> tuple[str, list[str], int, _Stream]:
    """A new match, its players, its version, and the second player's stream of it, read up to now."""
    match, players, version = new_match(stack)
    status, stream = _open(stack, match, players[1])
    assert status == 200 and stream is not None
    assert stream.frames.until("state")[-1].json["version"] == version
    return match, players, version, stream


def _events(stack: Stack, match: str, player: str, after: int) -> list[Any]:
    status, body = call(stack, stack.token(player), "GET", f"/v1/matches/{match}/events?after={after}")
    assert status == 200, body
    return list(body["events"])


def _version(stack: Stack, match: str, player: str) -> int:
    status, body = call(stack, stack.token(player), "GET", f"/v1/matches/{match}")
    assert status == 200, body
    return int(body["version"])


def _moves(stack: Stack, match: str, players: list[str], count: int) -> None:
    for _ in range(count):
        for player in players:
            move(stack, match, player)


def test_a_stream_resumes_with_last_event_id_after_the_waits_process_is_killed(stack: Stack) -> None:
    match, players, _ = new_match(stack)
    watcher = players[1]
    status, stream = _open(stack, match, watcher)
    assert status == 200
    first = stream.frames.until("state")
    assert messages(first) == _events(stack, match, watcher, 0)
    _moves(stack, match, players, 2)  # both mulligans, a turn or two
    seen = stream.until_version(_version(stack, match, watcher))
    last = int(seen[-1].id or 0)
    assert messages(first + seen) == _events(stack, match, watcher, 0)[: len(messages(first + seen))]

    stack.kill("waits")
    rest = list(stream.frames)  # ends with its process (else: the socket's timeout fails the test)
    assert all(f.is_ping for f in rest), rest
    _moves(stack, match, players, 2)  # the match moves on while no stream can be served
    missed = _version(stack, match, watcher)
    assert missed > last

    stack.start("waits")
    deadline = time.monotonic() + 60
    while (opened := _open(stack, match, watcher, last_event_id=last))[0] != 200:
        assert opened[0] == 503 and time.monotonic() < deadline, opened
        time.sleep(0.5)
    resumed = opened[1].until_version(missed)
    upto = int(resumed[-1].id or 0)
    expected = [e for e in _events(stack, match, watcher, last) if e["version"] <= upto]
    assert messages(resumed) == expected and expected, "not exactly the events after Last-Event-ID"
    assert "/stream" in stack.log("waits")
    assert "/stream" not in stack.log("web"), "a stream was served by the gthread gunicorn"


def test_an_idle_stream_lives_through_a_minute_on_heartbeats_and_delivers_the_next_event(
    stack: Stack,
) -> None:
    # Nothing may move the match meanwhile: no deadline, no absence rule (the timekeepers wait).
    with stack.paused(*TIMEKEEPERS):
        match, players, version, stream = _watched_match(stack)
        idle_since = time.monotonic()
        pings: list[Frame] = []
        while time.monotonic() - idle_since < 60:
            frame = next(stream.frames)  # a silence longer than 4 heartbeats fails (socket timeout)
            assert frame.is_ping, frame
            pings.append(frame)
        assert len(pings) >= 60 // HEARTBEAT - 1
        move(stack, match, players[0])
        pushed = stream.until_version(version + 1)
        assert messages(pushed) == _events(stack, match, players[1], version)


def _presence_changes(stack: Stack, match: str, player: str, seconds: float) -> list[float]:
    """When (``time.monotonic()``) the player's recorded presence moved, watched for ``seconds``."""
    changes, last = [], None
    query = "SELECT last_seen FROM match.match_presence WHERE match_id = %s AND player_id = %s"
    with psycopg.connect(stack.database_url, autocommit=True) as conn:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            row = conn.execute(query, (match, player)).fetchone()
            if row is not None and row[0] != last:
                changes.append(time.monotonic())
                last = row[0]
            time.sleep(0.25)
    return changes


def test_a_client_that_closes_its_stream_stops_counting_as_present_before_the_next_heartbeat(
    stack: Stack,
) -> None:
    # The stream passes through the one port's relay to the long-poll process: both must notice.
    with stack.paused(*TIMEKEEPERS):
        match, players, _, stream = _watched_match(stack)
        stream.conn.sock.shutdown(socket.SHUT_RDWR)  # the page left: its connection closes
        stream.conn.close()
        left = time.monotonic()
        # An open stream records presence every TOUCH_EVERY_SECONDS: watch two of those, all
        # before the next heartbeat (the first write after the client left).
        watched = 2 * TOUCH_EVERY_SECONDS + 2
        assert watched < HEARTBEAT
        changes = _presence_changes(stack, match, players[1], watched)
    late = [round(t - left, 1) for t in changes[1:] if t - left > 2]
    assert changes and not late, f"presence still recorded {late} s after the client left"
