"""`make run` keeps the stack up as a platform would: each kind of process it runs (web, Celery worker
and beat, a relay of each service, the consumers, the dev broker, PostgreSQL) is SIGKILLed in turn,
and each time the stack is ready again without intervention, with no acknowledged command lost.

Between kills a player registers, and plays a practice match against the bot; after each restart
every account registered so far is still there, the match is at least at the version of the last
acknowledged command, and play goes on. After the broker was replaced by an empty one, the
accounts relay published every registration again. Ctrl-C then stops everything, without a
traceback. A request that was not acknowledged (the part serving it was down) is retried with
the same Idempotency-Key, as a client does.
"""

from __future__ import annotations

import os
import signal
import uuid
from pathlib import Path
from typing import Any

import pytest
import requests

from harness.makerun import RECOVERY_SECONDS, MakeRun, wait_for
from harness.waiting import still_running
from tests.integration.bus.helpers import RawReader

pytestmark = pytest.mark.e2e

# What to kill, in this order (each recognised as ``makerun.LEADER_MARKS`` says; PostgreSQL, which pg_ctl
# detaches, through its lock file).
KILLED_IN_TURN = (
    "web",
    "celery-worker",
    "consumers",
    "kafka",
    "celery-beat",
    "relays",
    "postgres",
)


class Player:
    """A registered player who plays a practice match against the bot over HTTP."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.username = f"p{uuid.uuid4().hex[:12]}"
        password = "long enough secret"
        body = {"username": self.username, "password": password}
        self.id = str(_call("POST", f"{base}/v1/accounts", json=body).json()["player_id"])
        token = _call("POST", f"{base}/v1/sessions", json=body).json()["token"]
        self.headers = {"Authorization": f"Bearer {token}"}
        self.match_id: str | None = None
        self.acknowledged_version = 0

    def is_registered(self) -> bool:
        me = _call("GET", f"{self.base}/v1/me", headers=self.headers).json()
        return bool(me["username"] == self.username)

    def start_practice(self) -> None:
        answer = _call("POST", f"{self.base}/v1/practice", headers=self.headers).json()
        self.match_id, self.acknowledged_version = str(answer["match_id"]), int(answer["version"])

    def view(self) -> dict[str, Any]:
        return dict(_call("GET", f"{self.base}/v1/matches/{self.match_id}", headers=self.headers).json())

    def play_one_command(self) -> None:
        """Wait for this player's turn (long-poll) and make one move; a new match if it ended."""

        def moved() -> bool:
            view = self.view()
            if view["phase"] == "ended":
                self.start_practice()
                return False
            path = f"{self.base}/v1/matches/{self.match_id}"
            legal = _call("GET", f"{path}/legal-commands", headers=self.headers).json()
            if not legal["commands"]:
                wait = {"after": view["version"], "wait": 5}
                _call("GET", f"{path}/events", headers=self.headers, params=wait)
                return False
            body = {**_keep_the_match_going(legal["commands"]), "expected_version": legal["version"]}
            r = _call("POST", f"{path}/commands", headers=self.headers, json=body, accept=(200, 409))
            if r.status_code == 200:
                self.acknowledged_version = int(r.json()["version"])
            return r.status_code == 200

        wait_for(moved, RECOVERY_SECONDS, "an accepted command")


def _keep_the_match_going(commands: list[dict[str, Any]]) -> dict[str, Any]:
    """Keep the hand, then end turns: the match lasts through every kill."""
    for wanted in ("mulligan", "end_turn"):
        for command in commands:
            if command["type"] == wanted and not command.get("cards"):
                return command
    return commands[0]


def _call(method: str, url: str, *, accept: tuple[int, ...] = (200, 201), **kwargs: Any) -> requests.Response:
    """One request, retried with the same Idempotency-Key until it is answered with an expected
    status (a 5xx or a refused connection means it was not acknowledged)."""
    headers = {**kwargs.pop("headers", {}), "Idempotency-Key": str(uuid.uuid4())}
    last: object = None

    def answered() -> list[requests.Response] | None:
        nonlocal last
        try:
            r = requests.request(method, url, headers=headers, timeout=15, **kwargs)
        except requests.RequestException as exc:
            last = exc
            return None
        last = f"{r.status_code} {r.text[:300]}"
        if r.status_code >= 500:
            return None
        assert r.status_code in accept, f"{method} {url}: {last}"
        return [r]  # in a list: a Response is falsy when its status is 4xx (an accepted 409 too)

    return wait_for(answered, RECOVERY_SECONDS, lambda: f"answer to {method} {url} (last: {last})")[0]


def _wait_until_published(bootstrap: str, streams: set[str]) -> None:
    """Until the accounts topic on the broker at ``bootstrap`` holds a registration of each stream."""
    reader = RawReader(bootstrap, "arcana.accounts.events")
    published: set[str] = set()

    def all_there() -> bool:
        published.update(m.event["stream"] for m in reader.poll() if m.event["type"] == "PlayerRegistered")
        return streams <= published

    try:
        wait_for(all_there, RECOVERY_SECONDS, lambda: f"registrations published: {streams - published}")
    finally:
        reader.close()


def test_each_kind_of_process_killed_in_turn_comes_back_and_nothing_acknowledged_is_lost(
    tmp_path: Path,
) -> None:
    stack = MakeRun(tmp_path)
    try:
        stack.wait_ready()
        players = [Player(stack.base)]
        players[0].start_practice()
        players[0].play_one_command()
        for kind in KILLED_IN_TURN:
            stack.kill_and_wait_for_restart(kind)
            stack.wait_ready()

            assert all(p.is_registered() for p in players), f"an account was lost after killing {kind}"
            assert players[0].view()["version"] >= players[0].acknowledged_version, f"after killing {kind}"
            players[0].play_one_command()
            players.append(Player(stack.base))

        # The broker that runs now is empty since its restart: the relay published everything again.
        _wait_until_published(f"127.0.0.1:{stack.kafka_port}", {f"player-{p.id}" for p in players})
        started = stack.all_processes()
    finally:
        output = stack.stop()

    for kind in KILLED_IN_TURN:
        assert f"\n{kind} restarted" in output, f"{kind}:\n{output[-3000:]}"
    assert "Traceback" not in output and "Arcana: stopping" in output, output[-3000:]
    left = still_running(started)
    assert left == [], [p.cmdline() for p in left]


def test_ctrl_c_right_after_postgres_died_stops_cleanly(tmp_path: Path) -> None:
    stack = MakeRun(tmp_path)
    try:
        stack.wait_ready()
        started = stack.all_processes()
        postmaster = stack.leader("postgres")
        assert postmaster is not None
        os.kill(postmaster, signal.SIGKILL)
        wait_for(lambda: "\npostgres (" in stack.text(), RECOVERY_SECONDS, "the supervisor noticing")
    finally:
        output = stack.stop()  # before (or while) the supervisor starts PostgreSQL again
    assert "Traceback" not in output and "Arcana: stopping" in output, output[-3000:]
    assert stack.proc.returncode == 0
    left = still_running(started)
    assert left == [], [p.cmdline() for p in left]
