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
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil
import pytest
import requests

from libs.config import PROJECT_ROOT
from libs.devstack.ports import free_port
from tests.integration.bus.helpers import RawReader

pytestmark = pytest.mark.e2e

# What to kill, in this order, and how to recognise its leader among `make run`'s children.
KILLED_IN_TURN = {
    "web": "gunicorn",
    "celery-worker": "services.worker worker",
    "relay-accounts": "libs.bus.relay --service accounts",
    "consumers-match": "libs.kit.consume match",
    "kafka": "--cluster-id",
    "celery-beat": "services.worker beat",
    "relay-match": "libs.bus.relay --service match",
    "postgres": None,  # detached by pg_ctl: found through its lock file
}
RECOVERY_SECONDS = 90


class MakeRun:
    """`python -m libs.devstack.run` on a data folder and ports of its own."""

    def __init__(self, root: Path) -> None:
        self.data = root / "data"
        self.port, self.kafka_port = free_port(), free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("DATABASE_URL", "KAFKA_BOOTSTRAP_SERVERS", "CELERY_BROKER_URL")
        }
        env.update(
            ARCANA_DATA_DIR=str(self.data),
            ARCANA_PORT=str(self.port),
            ARCANA_PG_PORT=str(free_port()),
            ARCANA_KAFKA_PORT=str(self.kafka_port),
            ARCANA_SCRYPT_N="1024",
            PYTHONPATH=str(PROJECT_ROOT),
        )
        self.output = (root / "make-run.out").open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "libs.devstack.run"],
            cwd=PROJECT_ROOT,
            env=env,
            stdout=self.output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.output_path = root / "make-run.out"

    def leader(self, kind: str) -> int | None:
        """The pid of the running process of ``kind`` (the postmaster for ``postgres``)."""
        if kind == "postgres":
            try:
                return int((self.data / "pg" / "postmaster.pid").read_text().split()[0])
            except (OSError, ValueError, IndexError):
                return None
        mark = KILLED_IN_TURN[kind]
        for child in psutil.Process(self.proc.pid).children():
            try:
                if mark in " ".join(child.cmdline()) and child.status() != psutil.STATUS_ZOMBIE:
                    return int(child.pid)
            except psutil.NoSuchProcess:
                continue
        return None

    def kill_and_wait_for_restart(self, kind: str) -> None:
        """SIGKILL the process of ``kind``; return once `make run` has started another one."""
        victim = self.leader(kind)
        assert victim is not None, f"no {kind} running:\n{self.text()[-3000:]}"
        os.kill(victim, signal.SIGKILL)
        _wait_for(lambda: self.leader(kind) not in (None, victim), RECOVERY_SECONDS, f"{kind} restarted")

    def all_processes(self) -> list[psutil.Process]:
        """`make run`'s children and grandchildren, plus PostgreSQL's (detached) processes."""
        found = psutil.Process(self.proc.pid).children(recursive=True)
        for p in psutil.process_iter(["cmdline"]):
            if str(self.data) in " ".join(p.info["cmdline"] or []):
                found.append(p)
        return found

    def wait_ready(self) -> None:
        def ready() -> bool:
            assert self.proc.poll() is None, f"make run exited:\n{self.text()[-3000:]}"
            try:
                return requests.get(f"{self.base}/readyz", timeout=3).status_code == 200
            except requests.RequestException:
                return False

        _wait_for(ready, RECOVERY_SECONDS, "/readyz to answer 200")

    def stop(self) -> str:
        """What Ctrl-C in a terminal does; returns everything `make run` printed."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGINT)
            self.proc.wait(90)
        self.output.close()
        return self.text()

    def text(self) -> str:
        return self.output_path.read_text(errors="replace")


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

        _wait_for(moved, RECOVERY_SECONDS, "an accepted command")


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

    def answered() -> requests.Response | None:
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
        return r

    return _wait_for(answered, RECOVERY_SECONDS, lambda: f"answer to {method} {url} (last: {last})")


def _wait_for(probe: Callable[[], Any], timeout: float, what: str | Callable[[], str]) -> Any:
    """Poll ``probe`` until it returns something truthy, and return that; fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        result = probe()
        if result:
            return result
        assert time.monotonic() < deadline, f"no {what() if callable(what) else what} after {timeout}s"
        time.sleep(0.2)


def _wait_until_published(bootstrap: str, streams: set[str]) -> None:
    """Until the accounts topic on the broker at ``bootstrap`` holds a registration of each stream."""
    reader = RawReader(bootstrap, "arcana.accounts.events")
    published: set[str] = set()

    def all_there() -> bool:
        published.update(m.event["stream"] for m in reader.poll() if m.event["type"] == "PlayerRegistered")
        return streams <= published

    try:
        _wait_for(all_there, RECOVERY_SECONDS, lambda: f"registrations published: {streams - published}")
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
    time.sleep(0.5)
    left = [p for p in started if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    assert left == [], [p.cmdline() for p in left]


def test_ctrl_c_right_after_postgres_died_stops_cleanly(tmp_path: Path) -> None:
    stack = MakeRun(tmp_path)
    try:
        stack.wait_ready()
        started = stack.all_processes()
        postmaster = stack.leader("postgres")
        assert postmaster is not None
        os.kill(postmaster, signal.SIGKILL)
        _wait_for(lambda: "\npostgres (" in stack.text(), RECOVERY_SECONDS, "the supervisor noticing")
    finally:
        output = stack.stop()  # before (or while) the supervisor starts PostgreSQL again
    assert "Traceback" not in output and "Arcana: stopping" in output, output[-3000:]
    assert stack.proc.returncode == 0
    time.sleep(0.5)
    left = [p for p in started if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    assert left == [], [p.cmdline() for p in left]
