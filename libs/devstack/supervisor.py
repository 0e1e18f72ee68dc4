"""What ``make run`` does after starting the stack: keep every part running, as a platform would.

Each part (the embedded PostgreSQL, the dev broker, gunicorn, the Celery worker and beat, every
relay and consumer process) is a ``Unit``: it can be started, asked whether it still runs, cleaned
up after a crash and stopped. ``Supervisor.check`` notices a unit that died, kills what it left
behind, and starts it again after a delay that doubles with each crash in a row (0.5 s, 1 s, 2 s,
… up to 15 s), so a part that cannot start does not spin; a unit that ran for a while before
crashing starts again after the shortest delay. A failed restart counts as a crash. Units due at
once start the last started first: the processes before the infrastructure they wait for.

The other parts ride out a restart on their own: pools and the relay reconnect to PostgreSQL,
and a restarted dev broker comes back empty with a new cluster id, so the relays publish
everything again and the consumers read it again (their inbox drops what they already applied).

``Supervisor.stop`` stops the processes first (SIGTERM to each leader at once, then SIGKILL to
what is left of its process group) and then the infrastructure in reverse order of start.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from libs.config import PROJECT_ROOT
from libs.devstack.processes import Component

STOP_GRACE_SECONDS = 10.0


class Unit(Protocol):
    """One supervised part of the stack."""

    name: str

    def start(self) -> None: ...

    def alive(self) -> bool: ...

    def describe(self) -> str: ...

    def clean_up(self) -> None: ...

    def request_stop(self) -> None: ...

    def stop(self) -> None: ...


class ChildProcess:
    """A component of ``processes.py`` run as a child in a session (process group) of its own."""

    def __init__(self, component: Component, env: dict[str, str], logs: Path) -> None:
        self.name = component.name
        self.component = component
        self.env = {**env, **component.env}
        self.log_path = logs / f"{component.name}.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self._stop_deadline: float | None = None

    def start(self) -> None:
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(
                self.component.argv,
                env=self.env,
                cwd=PROJECT_ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def describe(self) -> str:
        if self.proc is None:
            return "not started"
        if self.proc.returncode is not None:
            return f"pid {self.proc.pid} exited with {self.proc.returncode}"
        return f"pid {self.proc.pid}  log {self.log_path}"

    def clean_up(self) -> None:
        """Kill what the dead leader left in its group (gunicorn's workers, Celery's pool)."""
        if self.proc is not None:
            _kill_group(self.proc.pid)

    def request_stop(self) -> None:
        """SIGTERM to the leader only: gunicorn and Celery then stop their own children gracefully."""
        if self._stop_deadline is None:
            self._stop_deadline = time.monotonic() + STOP_GRACE_SECONDS
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)

    def stop(self) -> None:
        """Wait (until ``STOP_GRACE_SECONDS`` after the SIGTERM) for the leader, then kill its group."""
        if self.proc is None:
            return
        self.request_stop()
        assert self._stop_deadline is not None
        with suppress(subprocess.TimeoutExpired):
            self.proc.wait(max(0.1, self._stop_deadline - time.monotonic()))
        _kill_group(self.proc.pid)  # a leader that hung, or anything it left behind
        self.proc.wait()


class Infrastructure:
    """The embedded PostgreSQL or dev broker: anything with ``start()``, ``alive()``, ``stop()``."""

    def __init__(self, name: str, server: _Server, describe: Callable[[], str]) -> None:
        self.name = name
        self.server = server
        self._describe = describe

    def start(self) -> None:
        self.server.start()

    def alive(self) -> bool:
        return self.server.alive()

    def describe(self) -> str:
        return self._describe()

    def clean_up(self) -> None:
        self.server.stop()  # a no-op for a dead server; reaps the broker's process

    def request_stop(self) -> None:
        pass

    def stop(self) -> None:
        self.server.stop()


class _Server(Protocol):
    def start(self) -> object: ...

    def alive(self) -> bool: ...

    def stop(self) -> None: ...


@dataclass(frozen=True)
class RestartPolicy:
    """Delays before a restart: ``initial * 2**(crashes in a row - 1)``, at most ``maximum``;
    a unit that ran ``stable_after`` seconds before it crashed starts a new series."""

    initial: float = 0.5
    maximum: float = 15.0
    stable_after: float = 30.0

    def delay(self, crashes_in_a_row: int) -> float:
        return float(min(self.maximum, self.initial * 2 ** max(0, crashes_in_a_row - 1)))


@dataclass
class _Watch:
    """What the supervisor knows of one unit."""

    unit: Unit
    started_at: float = 0.0
    crashes_in_a_row: int = 0
    restart_at: float | None = None  # set while the unit is down, waiting for its restart
    restarts: int = field(default=0)


class Supervisor:
    """Starts units, restarts the ones that die (with backoff), stops them all in order."""

    def __init__(
        self,
        policy: RestartPolicy | None = None,
        say: Callable[[str], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.policy = policy or RestartPolicy()
        self.say = say or _to_stderr
        self.clock = clock
        self.watches: list[_Watch] = []

    def add(self, unit: Unit) -> None:
        """Start ``unit`` now (a failure raises: the stack cannot come up) and watch it from now on."""
        unit.start()
        self.watches.append(_Watch(unit, started_at=self.clock()))

    def check(self) -> None:
        """Notice the units that died and restart those whose delay has passed, the last started first.

        The processes start at once and wait for what they need, while starting the infrastructure
        blocks until it is ready (PostgreSQL's crash recovery takes seconds): after a crash of
        everything, gunicorn and Celery boot meanwhile instead of after it."""
        now = self.clock()
        for watch in self.watches:
            if watch.restart_at is None and not watch.unit.alive():
                self._schedule_restart(watch, now)
        for watch in reversed(self.watches):
            if watch.restart_at is not None and now >= watch.restart_at:
                self._restart(watch)

    def restarts(self) -> dict[str, int]:
        """How many times each unit was started again (for logs and tests)."""
        return {w.unit.name: w.restarts for w in self.watches}

    def stop(self) -> None:
        """Stop the processes (all signalled at once), then the infrastructure, last started first."""
        for watch in self.watches:
            watch.unit.request_stop()
        for watch in reversed(self.watches):
            try:
                watch.unit.stop()
            except Exception as exc:  # keep stopping the others; report, never a traceback
                self.say(f"{watch.unit.name}: stopping failed: {exc!r}")

    # -- restarts ------------------------------------------------------------------------------

    def _schedule_restart(self, watch: _Watch, now: float) -> None:
        ran_for = now - watch.started_at
        watch.crashes_in_a_row = 1 if ran_for >= self.policy.stable_after else watch.crashes_in_a_row + 1
        delay = self.policy.delay(watch.crashes_in_a_row)
        unit = watch.unit
        self.say(f"{unit.name} ({unit.describe()}) died after {ran_for:.1f} s; restarting in {delay:.1f} s")
        try:
            watch.unit.clean_up()
        except Exception as exc:
            self.say(f"{watch.unit.name}: cleaning up failed: {exc!r}")
        watch.restart_at = now + delay

    def _restart(self, watch: _Watch) -> None:
        watch.restart_at = None
        watch.started_at = self.clock()
        try:
            watch.unit.start()
        except Exception as exc:  # counts as a crash: the next check schedules another try
            self.say(f"{watch.unit.name}: restart failed: {exc!r}")
            return
        watch.restarts += 1
        self.say(f"{watch.unit.name} restarted ({watch.unit.describe()})")


def _kill_group(pgid: int) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
