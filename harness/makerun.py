"""`make run` as the e2e tests and `make bench-recovery` start it: ``python -m libs.devstack.run`` in a
subprocess, exactly the command of the Makefile, on a data folder and ports of its own.

Its environment adds only what an operator could set too: ``ARCANA_CLOCK_FILE`` (so every process's
``libs.clock`` can be moved forward), a token secret and an operator token (so bearer tokens are issued
here with the stack's secret, with no log-in and no scrypt work, and ``/v1/admin/...`` answers), and
``ARCANA_SCRYPT_N=1024`` for the accounts that are registered over HTTP.

`make run`'s own process is the supervisor (the platform): ``kill_everything`` SIGKILLs every process
under it and PostgreSQL, never it, and it brings them back.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
import sys
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil
import requests

from harness.waiting import wait_until
from libs import clock
from libs.config import PROJECT_ROOT
from libs.devstack.ports import free_port
from libs.devstack.postgres import DATABASE
from libs.web import issue_token

# How to recognise the leader of each kind of process among `make run`'s children (its command line).
LEADER_MARKS = {
    "web": "gunicorn services.wsgi:app",
    "waits": "gunicorn services.match.waits_wsgi:app",
    "celery-worker": "services.worker worker",
    "celery-beat": "services.worker beat",
    "relays": "libs.kit.relay --service",
    "consumers": "libs.kit.consume",
    "kafka": "--cluster-id",
}
RECOVERY_SECONDS = 90


class MakeRun:
    """`python -m libs.devstack.run` on a data folder and ports of its own."""

    def __init__(self, root: Path, env: dict[str, str] | None = None) -> None:
        self.data = root / "data"
        self.port, self.kafka_port, self.pg_port = free_port(), free_port(), free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.clock_file = root / "clock-offset"
        self.clock_offset = 0.0
        clock.write_offset_file(self.clock_file, 0)
        self.token_secret = secrets.token_urlsafe(48)
        self.operator_token = secrets.token_urlsafe(32)
        stack_env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("DATABASE_URL", "KAFKA_BOOTSTRAP_SERVERS", "CELERY_BROKER_URL")
        }
        stack_env.update(
            ARCANA_DATA_DIR=str(self.data),
            ARCANA_PORT=str(self.port),
            ARCANA_PG_PORT=str(self.pg_port),
            ARCANA_KAFKA_PORT=str(self.kafka_port),
            ARCANA_SCRYPT_N="1024",
            ARCANA_CLOCK_FILE=str(self.clock_file),
            ARCANA_TOKEN_SECRET=self.token_secret,
            ARCANA_OPERATOR_TOKEN=self.operator_token,
            PYTHONPATH=os.pathsep.join(filter(None, [str(PROJECT_ROOT), os.environ.get("PYTHONPATH")])),
            **(env or {}),
        )
        self.output_path = root / "make-run.out"
        self.output = self.output_path.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "libs.devstack.run"],
            cwd=PROJECT_ROOT,
            env=stack_env,
            stdout=self.output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    @property
    def database_url(self) -> str:
        """The embedded PostgreSQL's database (what `make run` records in ``<data>/database-url``)."""
        return f"postgresql://postgres@127.0.0.1:{self.pg_port}/{DATABASE}"

    @property
    def postgres_log(self) -> Path:
        return self.data / "pg" / "server.log"

    def log(self, name: str) -> str:
        """The log of one process kind (``web``, ``celery-worker``, ...) in ``<data>/logs``."""
        path = self.data / "logs" / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    # -- processes -----------------------------------------------------------------------------

    def leader(self, kind: str) -> int | None:
        """The pid of the running process of ``kind`` (the postmaster for ``postgres``)."""
        if kind == "postgres":
            return self.postmaster_pid()
        mark = LEADER_MARKS[kind]
        for child in psutil.Process(self.proc.pid).children():
            try:
                if mark in " ".join(child.cmdline()) and child.status() != psutil.STATUS_ZOMBIE:
                    return int(child.pid)
            except psutil.NoSuchProcess:
                continue
        return None

    def postmaster_pid(self) -> int | None:
        """The pid in PostgreSQL's lock file (pg_ctl detaches the postmaster from `make run`)."""
        try:
            return int((self.data / "pg" / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def kill_and_wait_for_restart(self, kind: str) -> None:
        """SIGKILL the process of ``kind``; return once `make run` has started another one."""
        victim = self.leader(kind)
        assert victim is not None, f"no {kind} running:\n{self.text()[-3000:]}"
        os.kill(victim, signal.SIGKILL)
        wait_for(lambda: self.leader(kind) not in (None, victim), RECOVERY_SECONDS, f"{kind} restarted")

    def kill_everything(self) -> int:
        """SIGKILL, in one pass, every process `make run` started (each child's whole process group:
        gunicorn's master and workers, Celery's worker and its pool, beat, the relays, the consumers,
        the broker) and PostgreSQL (the postmaster of the lock file and its backends). `make run`
        itself, the supervisor, lives on. Returns how many processes were signalled."""
        supervisor = psutil.Process(self.proc.pid)
        groups = [child.pid for child in supervisor.children()]
        victims = supervisor.children(recursive=True)
        postmaster = self.postmaster_pid()
        if postmaster is not None:
            with contextlib.suppress(psutil.Error):
                server = psutil.Process(postmaster)
                victims += [server, *server.children()]
        for pgid in groups:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pgid, signal.SIGKILL)
        for victim in victims:  # anything outside those groups (PostgreSQL's, detached by pg_ctl)
            with contextlib.suppress(psutil.Error):
                victim.kill()
        return len(victims)

    def all_processes(self) -> list[psutil.Process]:
        """`make run`'s children and grandchildren, plus PostgreSQL's (detached) processes."""
        found = psutil.Process(self.proc.pid).children(recursive=True)
        for p in psutil.process_iter(["cmdline"]):
            if str(self.data) in " ".join(p.info["cmdline"] or []):
                found.append(p)
        return found

    def wait_ready(self, timeout: float = RECOVERY_SECONDS) -> None:
        """Until ``/readyz`` answers 200; fails when `make run` exits or after ``timeout`` seconds."""

        def ready() -> bool:
            assert self.proc.poll() is None, f"make run exited:\n{self.text()[-3000:]}"
            try:
                return requests.get(f"{self.base}/readyz", timeout=3).status_code == 200
            except requests.RequestException:
                return False

        wait_for(ready, timeout, "/readyz to answer 200")

    def stop(self) -> str:
        """What Ctrl-C in a terminal does; returns everything `make run` printed."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGINT)
            self.proc.wait(90)
        self.output.close()
        return self.text()

    def stop_surely(self) -> None:
        """``stop``, and SIGKILL whatever is left when that fails or hangs (a clean-up that always
        ends: `make run`, its children and PostgreSQL's processes)."""
        started: list[psutil.Process] = []
        with contextlib.suppress(psutil.Error):
            started = self.all_processes()
        try:
            self.stop()
        except (subprocess.TimeoutExpired, OSError):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(30)
        for leftover in started:
            with contextlib.suppress(psutil.Error):
                leftover.kill()
        if not self.output.closed:
            self.output.close()

    def text(self) -> str:
        return self.output_path.read_text(errors="replace")

    # -- helpers -------------------------------------------------------------------------------

    def advance_clock(self, seconds: float) -> None:
        """Move the clock of every process of the stack ``seconds`` forward."""
        self.clock_offset += seconds
        clock.write_offset_file(self.clock_file, self.clock_offset)

    def token(self, player_id: str | uuid.UUID) -> str:
        """A bearer token of ``player_id`` signed with the stack's secret (no log-in)."""
        return issue_token(self.token_secret, uuid.UUID(str(player_id)), 3600).token


def wait_for(probe: Callable[[], Any], timeout: float, what: str | Callable[[], str]) -> Any:
    """``wait_until`` at a pace for probes that make HTTP requests or read logs (every 0.2 s)."""
    return wait_until(probe, timeout, what, interval=0.2)


__all__ = ["LEADER_MARKS", "RECOVERY_SECONDS", "MakeRun", "wait_for"]
