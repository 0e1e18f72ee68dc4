"""A match played across two web processes and two long-poll processes, as on two machines behind a
load balancer: each player sends its commands to one web replica and follows the match on the other,
both with ``GET /events?wait=`` long-polls and with the event stream (``GET /stream``), which that
replica passes on to its own gevent process. Both replicas share nothing but PostgreSQL; a waiting
request learns of an append made by the other replica through PostgreSQL's NOTIFY
(``services/match/notify.py``).

What is asserted: every event each player may see reaches its long-polls, and its stream, exactly
once and in order (the list each gathered is, event for event, the one ``/events?after=0`` gives
afterwards), and each long-poll process served this match's long-polls and streams while each web
replica answered commands.
"""

from __future__ import annotations

import http.client
import random
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from harness.stack import OPERATOR_TOKEN, Stack
from libs.games.arcana import STARTER_DECK
from tests.sse import SseReader

pytestmark = pytest.mark.e2e

COMMANDS = 40  # enough for several turns of both players, each answer followed by the other's polls
WAIT = 5  # s per long-poll: short, so the readers notice the end soon after the last event
HEARTBEAT = 2  # s between a quiet stream's pings: its reader looks at the end that often


@pytest.fixture(scope="module")
def stack(postgres_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    root = tmp_path_factory.mktemp("replicas")
    env = {"ARCANA_STREAM_HEARTBEAT_SECONDS": str(HEARTBEAT)}
    with Stack(postgres_url, None, root, env=env, web_replicas=2, waits_apart=True) as s:
        assert {"web", "web-2", "waits", "waits-2"} <= set(s.components)
        s.wait_ready()
        yield s
    for name in ("web", "web-2", "waits", "waits-2"):
        assert '"status": 500' not in s.log(name), s.log(name)[-3000:]


class Reader(threading.Thread):
    """One player following the match with long-polls on one replica until the match's version
    reaches ``until`` (set once the commands are over): every event of every answer, in the order
    they came."""

    def __init__(self, base: str, match: str, session: requests.Session) -> None:
        super().__init__(daemon=True)
        self.base, self.match, self.session = base, match, session
        self.events: list[dict[str, Any]] = []
        self.version = 0  # the match's version the last answer gave
        self.until: int | None = None
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            while self.until is None or self.version < self.until:
                url = f"{self.base}/v1/matches/{self.match}/events?after={self.version}&wait={WAIT}"
                reply = self.session.get(url, timeout=WAIT + 30)
                assert reply.status_code == 200, reply.text
                answer = reply.json()
                self.events.extend(answer["events"])
                self.version = answer["version"]
        except BaseException as exc:  # reported by the test
            self.failure = exc


class StreamReader(threading.Thread):
    """One player following the match on its event stream on one replica until a state frame says
    the match's version reached ``until``: every event message, in the order they came."""

    def __init__(self, port: int, match: str, token: str) -> None:
        super().__init__(daemon=True)
        self.port, self.match, self.token = port, match, token
        self.events: list[dict[str, Any]] = []
        self.version = 0  # the version the last state frame described
        self.until: int | None = None
        self.failure: BaseException | None = None

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10 * HEARTBEAT)
        try:
            headers = {"Authorization": f"Bearer {self.token}", "Accept": "text/event-stream"}
            conn.request("GET", f"/v1/matches/{self.match}/stream?after=0", headers=headers)
            response = conn.getresponse()
            assert response.status == 200, response.read()
            for frame in SseReader(iter(lambda: response.read1(65536), b"")):
                if frame.event == "state":
                    self.version = frame.json["version"]
                elif frame.event is None and frame.data:
                    self.events.append(frame.json)
                if self.until is not None and self.version >= self.until:
                    return
        except BaseException as exc:  # reported by the test
            self.failure = exc
        finally:
            conn.close()


def _session(stack: Stack, player: str) -> requests.Session:
    s = requests.Session()
    s.headers["Authorization"] = f"Bearer {stack.token(player)}"
    return s


def _choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    keep = [c for c in legal if c["type"] == "mulligan" and not c.get("cards")]
    actions = [c for c in legal if c["type"] in ("play", "attack")]
    if keep:
        return keep[0]
    if actions and rng.random() < 0.7:
        return rng.choice(actions)
    return next((c for c in legal if c["type"] == "end_turn"), legal[0])


def _play(commands_at: dict[str, str], match: str, sessions: dict[str, requests.Session]) -> int:
    """``COMMANDS`` commands of whoever the match waits for, each sent to that player's command
    replica; returns the match's version after the last one."""
    rng = random.Random(7)
    version = 0
    for _ in range(COMMANDS):
        listed = None
        for player, base in commands_at.items():
            reply = sessions[player].get(f"{base}/v1/matches/{match}/legal-commands", timeout=30)
            assert reply.status_code == 200, reply.text
            if reply.json()["commands"]:
                listed = (player, base, reply.json())
                break
        if listed is None:  # ended, or waiting for nobody
            break
        player, base, legal = listed
        command = {**_choose(legal["commands"], rng), "expected_version": legal["version"]}
        reply = sessions[player].post(f"{base}/v1/matches/{match}/commands", json=command, timeout=30)
        assert reply.status_code in (200, 409), reply.text  # 409: a deadline moved the match first
        if reply.status_code == 200:
            version = reply.json()["version"]
    return version


def test_a_match_played_across_two_web_and_two_waits_processes_reaches_every_event_once_in_order(
    stack: Stack,
) -> None:
    one, two = stack.urls
    players = [str(uuid.uuid4()), str(uuid.uuid4())]
    setup = {"players": [{"id": p, "deck": list(STARTER_DECK)} for p in players]}
    made = requests.post(
        f"{one}/v1/admin/matches",
        json={"setup": setup},
        headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"},
        timeout=30,
    )
    assert made.status_code == 201, made.text
    match = made.json()["match_id"]
    sessions = {p: _session(stack, p) for p in players}
    # The first player commands through replica one and reads through two; the second the other way.
    commands_at = {players[0]: one, players[1]: two}
    polls = {
        players[0]: Reader(two, match, sessions[players[0]]),
        players[1]: Reader(one, match, sessions[players[1]]),
    }
    ports = {players[0]: int(two.rsplit(":", 1)[1]), players[1]: int(one.rsplit(":", 1)[1])}
    streams = {p: StreamReader(ports[p], match, stack.token(p)) for p in players}
    readers: list[tuple[str, str, Reader | StreamReader]] = [
        *(("long-polls", p, r) for p, r in polls.items()),
        *(("stream", p, r) for p, r in streams.items()),
    ]
    for _, _, reader in readers:
        reader.start()

    last = _play(commands_at, match, sessions)
    assert last > 10, "the match hardly moved"
    for how, player, reader in readers:
        reader.until = last
        reader.join(timeout=WAIT + 60)
        assert not reader.is_alive(), f"{player}'s {how} never reached version {last}"
        assert reader.failure is None, reader.failure

    for how, player, reader in readers:
        versions = [e["version"] for e in reader.events]
        assert versions == sorted(set(versions)), (
            f"{player}'s {how}: an event twice or out of order: {versions}"
        )
        every = sessions[player].get(f"{commands_at[player]}/v1/matches/{match}/events?after=0", timeout=30)
        assert every.status_code == 200, every.text
        expected = [e for e in every.json()["events"] if e["version"] <= reader.version]
        assert reader.events == expected, f"{player}'s {how} missed or changed events"
        assert reader.version >= last

    for name in ("waits", "waits-2"):
        for path in (f"/v1/matches/{match}/events", f"/v1/matches/{match}/stream"):
            assert path in stack.log(name), f"{name} served no {path}"
    for name in ("web", "web-2"):
        assert f"/v1/matches/{match}/commands" in stack.log(name), f"{name} answered no command"
        for path in (f"/v1/matches/{match}/events", f"/v1/matches/{match}/stream"):
            assert path not in stack.log(name), f"{name} served {path} itself, not its waits process"
