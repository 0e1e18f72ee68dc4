"""The whole product as real processes, for end-to-end tests: started with the command lines of
``libs/devstack/processes.py`` (exactly what ``make run`` starts) against the test session's
PostgreSQL and a Kafka-protocol broker of the stack's own.

Usage (see tests/e2e/test_match_e2e.py)::

    with Stack(postgres_url, None, tmp_path) as stack:   # own database (migrated) and broker
        stack.wait_ready()
        token = stack.token(player_id)                  # a bearer token the stack accepts
        requests.get(stack.url + "/v1/catalog")
        stack.kill("web", "celery-worker")              # SIGKILL each component's process group
        stack.advance_clock(61)                         # every process's libs.clock moves forward
        stack.start("web", "celery-worker"); stack.wait_ready()

Each stack gets a database of its own (a copy of a migrated template, ``migrated_database``), a data
folder of its own (Celery's filesystem queue, logs) and ``ARCANA_CLOCK_FILE``; given no broker
(``kafka_bootstrap`` None) it starts a Kafka-protocol broker of its own too, as a deployment has its own
topics. Stacks on one broker hear each other: a stack's consumer groups read every topic from its
start, so each stack's match service answered the match requests of every other, and a foreign
"unknown player" rejection could return a ticket that its own match service had just matched
(docs/testing.md, "Thirteenth pass"). Components are named
as in ``processes.all_components``: ``web``, ``celery-worker``, ``celery-beat``, ``relays`` (every
service's relay, one process), ``consumers`` (every service's subscriptions, one process). Each runs
in its own session, so ``kill`` reaches every process of it (the gunicorn master and its workers,
the Celery worker and its pool). ``web_replicas=2`` adds ``web-2`` (and ``waits-2`` when the
long-polls are apart: ``waits_apart=True``, or ``ARCANA_WAITS=on``) on a port of its own:
``stack.urls``.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import requests
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from libs import clock
from libs.config import PROJECT_ROOT
from libs.db.migrate_all import migrate_all
from libs.devstack import processes
from libs.devstack.broker import DevBroker
from libs.devstack.ports import free_port
from libs.web import issue_token

TOKEN_SECRET = "e2e-token-secret-" + "z" * 48
OPERATOR_TOKEN = "e2e-operator-" + "o" * 32
# A named operator's own token (ARCANA_OPERATOR_TOKENS): the audit log names who acted.
NAMED_OPERATOR, NAMED_OPERATOR_TOKEN = "e2e-ops", "e2e-ops-token-" + "n" * 32


def create_database(postgres_url: str, prefix: str = "e2e", template: str | None = None) -> str:
    """A new database on the same server, empty or a copy of ``template``; returns its connection
    string."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    copy = f' TEMPLATE "{template}"' if template else ""
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"{copy}')
    return make_conninfo(postgres_url, dbname=name)


# The migrated template database of each server this process made stacks on (its URL -> its name).
_templates: dict[str, str] = {}


def migrated_database(postgres_url: str) -> str:
    """A new database with every service's schema migrated: a copy of a template that this process
    migrated once on that server (``CREATE DATABASE ... TEMPLATE``; migrating each stack's database
    from nothing took 2-3 s, the copy 0.2-1 s), then ``migrate_all`` on the copy, which finds nothing
    left to apply and publishes the analysts' views as it does for every database."""
    if postgres_url not in _templates:
        template = create_database(postgres_url, prefix="e2e_template")
        migrate_all(template)
        _templates[postgres_url] = conninfo_to_dict(template)["dbname"]
    database = create_database(postgres_url, template=_templates[postgres_url])
    migrate_all(database)
    return database


class Stack:
    def __init__(
        self,
        postgres_url: str,
        kafka_bootstrap: str | None,
        root: Path,
        *,
        env: dict[str, str] | None = None,
        port: int | None = None,
        web_replicas: int = 1,
        waits_apart: bool | None = None,
    ) -> None:
        self.root = Path(root)
        self.data = self.root / "data"
        self.logs = self.root / "logs"
        self.data.mkdir(parents=True, exist_ok=True)
        self.logs.mkdir(parents=True, exist_ok=True)
        self.clock_file = self.root / "clock-offset"
        self.clock_offset = 0.0
        clock.write_offset_file(self.clock_file, 0)
        self.database_url = migrated_database(postgres_url)
        self.broker: DevBroker | None = None  # the stack's own, when it was given none
        if kafka_bootstrap is None:
            self.broker = DevBroker(free_port(), self.logs / "broker.log")
            kafka_bootstrap = self.broker.start()
        self.kafka = kafka_bootstrap
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = processes.base_env(self.database_url, kafka_bootstrap, None, self.data)
        for name in ("CELERY_BROKER_URL", "ARCANA_CLOCK_FILE"):
            self.env.pop(name, None)
        self.env.update(
            ARCANA_CLOCK_FILE=str(self.clock_file),
            # Consumer groups of its own: a stack given a broker may meet another's groups there (a
            # group still holding a stopped stack's members would not hand this one its partitions
            # in time), and so may a stack that goes on with a new broker (``use``).
            ARCANA_KAFKA_GROUP_PREFIX=f"stack-{uuid.uuid4().hex[:8]}.",
            ARCANA_TOKEN_SECRET=TOKEN_SECRET,
            ARCANA_OPERATOR_TOKEN=OPERATOR_TOKEN,
            ARCANA_OPERATOR_TOKENS=f"{NAMED_OPERATOR}={NAMED_OPERATOR_TOKEN}",
            ARCANA_SCRYPT_N="1024",
            **(env or {}),
        )
        more = tuple(free_port() for _ in range(web_replicas - 1))
        self.components = {
            c.name: c for c in processes.all_components(self.port, self.data, more, waits_apart)
        }
        # Each web replica's base URL (``web``, ``web-2``, …); ``url`` is the first.
        self.urls = [self.url, *(f"http://127.0.0.1:{p}" for p in more)]
        self.procs: dict[str, subprocess.Popen[bytes]] = {}

    # -- processes -----------------------------------------------------------------------------

    def start(self, *names: str) -> None:
        """Start the named components (all of them when none is named)."""
        for name in names or tuple(self.components):
            proc = self.procs.get(name)
            if proc is not None and proc.poll() is None:
                continue
            component = self.components[name]
            log = (self.logs / f"{name}.log").open("ab")
            self.procs[name] = subprocess.Popen(
                component.argv,
                env={**self.env, **component.env},
                cwd=PROJECT_ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
            log.close()

    def kill(self, *names: str, sig: signal.Signals = signal.SIGKILL) -> None:
        """Send ``sig`` (default SIGKILL) to every process of the named components and reap them."""
        for name in names:
            proc = self.procs.pop(name, None)
            if proc is None:
                continue
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, sig)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            if sig == signal.SIGKILL:  # children of a killed gunicorn/celery may linger a moment
                _wait_group_gone(proc.pid)

    @contextlib.contextmanager
    def paused(self, *names: str) -> Iterator[None]:
        """The named components stopped (SIGSTOP to their process groups) inside the block, continued
        after it: e.g. the Celery worker and beat, so no deadline or presence rule fires while a test
        sets up hundreds of matches on a loaded machine (their tasks wait in the broker meanwhile)."""
        groups = [self.procs[name].pid for name in names]
        for pid in groups:
            os.killpg(pid, signal.SIGSTOP)
        try:
            yield
        finally:
            for pid in groups:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(pid, signal.SIGCONT)

    def stop(self, grace: float = 2.0) -> None:
        """SIGTERM each component's leader (a Celery worker whose pool children get SIGTERM too hangs
        in its warm shutdown), then SIGKILL whatever of its group is left after ``grace`` seconds.
        (gunicorn waits up to its graceful timeout, 5 s, for open keep-alive connections and long
        polls: nothing a stack at the end of its tests needs, so it does not get that long.)"""
        procs = list(self.procs.values())
        for proc in procs:
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + grace
        for proc in procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(max(0.1, deadline - time.monotonic()))
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        self.procs.clear()

    def use(self, database_url: str, kafka_bootstrap: str) -> None:
        """Run on another database and broker from the next ``start`` (a restore: every component
        is stopped first)."""
        assert not self.procs, f"stop {sorted(self.procs)} first"
        self.database_url, self.kafka = database_url, kafka_bootstrap
        self.env.update(DATABASE_URL=database_url, KAFKA_BOOTSTRAP_SERVERS=kafka_bootstrap)

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Until every web replica's gunicorn answers ``/healthz`` (fails early when a component
        exited)."""
        deadline = time.monotonic() + timeout
        for url in self.urls:
            while not _healthy(url):
                for name, proc in self.procs.items():
                    assert proc.poll() is None, f"{name} exited:\n{self.log(name)[-3000:]}"
                assert time.monotonic() < deadline, (
                    f"no {url}/healthz after {timeout}s:\n{self.log('web')[-3000:]}"
                )
                time.sleep(0.1)

    def log(self, name: str) -> str:
        path = self.logs / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    # -- helpers -------------------------------------------------------------------------------

    def advance_clock(self, seconds: float) -> None:
        """Move the clock of every process of the stack ``seconds`` forward."""
        self.clock_offset += seconds
        clock.write_offset_file(self.clock_file, self.clock_offset)

    def token(self, player_id: str | uuid.UUID) -> str:
        return issue_token(TOKEN_SECRET, uuid.UUID(str(player_id)), 3600).token

    def session(self, player_id: str | uuid.UUID) -> requests.Session:
        """An HTTP session authenticated as ``player_id``."""
        s = requests.Session()
        s.headers["Authorization"] = f"Bearer {self.token(player_id)}"
        return s

    def operator(self) -> requests.Session:
        s = requests.Session()
        s.headers["Authorization"] = f"Bearer {OPERATOR_TOKEN}"
        return s

    def __enter__(self) -> Stack:
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
        if exc[0] is None:
            self.assert_published_as_declared()

    def close(self) -> None:
        """Stop every component, then the stack's own broker (its topics are gone with it)."""
        self.stop()
        if self.broker is not None:
            self.broker.stop()

    def assert_published_as_declared(self) -> None:
        """No relay met an event its topic does not declare (they run with ARCANA_SCHEMA_CHECK=strict
        in the tests: such an event stops the relay, and its log says why)."""
        found = [
            line
            for path in sorted(self.logs.glob("relays*.log"))
            for line in path.read_text(errors="replace").splitlines()
            if "schema violation" in line
        ]
        assert not found, "published events that do not match their schemas:\n" + "\n".join(found[:20])


@contextlib.contextmanager
def waits_apart(
    postgres_url: str, kafka_bootstrap: str | None, root: Path, env: dict[str, str] | None = None
) -> Iterator[Stack]:
    """A started, ready stack whose long-polls and streams have their gevent process
    (``ARCANA_WAITS=on``); after it, neither gunicorn may have answered 500."""
    before = os.environ.get("ARCANA_WAITS")
    os.environ["ARCANA_WAITS"] = "on"  # the layout is chosen where the command lines are made
    try:
        stack = Stack(postgres_url, kafka_bootstrap, root, env=env)
    finally:
        if before is None:
            del os.environ["ARCANA_WAITS"]
        else:
            os.environ["ARCANA_WAITS"] = before
    with stack as s:
        assert "waits" in s.components, "gevent is not installed: the long-polls have no process of their own"
        s.wait_ready()
        yield s
    for name in ("web", "waits"):
        assert '"status": 500' not in s.log(name), s.log(name)[-3000:]


def _healthy(url: str) -> bool:
    try:
        return requests.get(f"{url}/healthz", timeout=1).status_code == 200
    except requests.RequestException:
        return False


def _wait_group_gone(pgid: int, timeout: float = 3.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)


__all__ = [
    "NAMED_OPERATOR",
    "NAMED_OPERATOR_TOKEN",
    "OPERATOR_TOKEN",
    "TOKEN_SECRET",
    "Stack",
    "create_database",
    "migrated_database",
]
