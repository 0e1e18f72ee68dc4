"""The embedded parts of `make run` after a crash: a SIGKILLed postmaster is seen as dead, stopping it
then is a quiet no-op (no traceback), and it starts again on the same data with its rows (killed with
its backends, at the first attempt); a killed dev broker is seen as dead and starts again empty,
under a new cluster id."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from pathlib import Path

import psutil
import psycopg
import pytest

from libs.devstack.broker import DevBroker
from libs.devstack.ports import free_port
from libs.devstack.postgres import EmbeddedPostgres


def _start_with_retries(server: EmbeddedPostgres, attempts: int = 20) -> str:
    """What the supervisor does: the killed postmaster's backends may hold its memory a moment."""
    for attempt in range(attempts):
        try:
            return server.start()
        except Exception:
            if attempt == attempts - 1:
                raise
            time.sleep(0.5)
    raise AssertionError("unreachable")


@pytest.mark.parametrize("durable", [True, False], ids=["durable", "scratch"])
def test_a_killed_postmaster_is_dead_stops_quietly_and_starts_again_with_its_data(
    tmp_path: Path, durable: bool
) -> None:
    """Also for the tests' scratch cluster (no fsync): what a killed server acknowledged is kept."""
    server = EmbeddedPostgres(tmp_path / "pg", free_port(), durable=durable)
    url = server.start()
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            assert conn.execute("SHOW fsync").fetchone() == ("on" if durable else "off",)
            conn.execute("CREATE TABLE kept (n int)")
            conn.execute("INSERT INTO kept VALUES (42)")
        assert server.alive()
        pid = server.postmaster_pid()
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while server.alive() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not server.alive()
        server.stop()  # after a crash: returns, raises nothing

        _start_with_retries(server)
        assert server.alive() and server.postmaster_pid() != pid
        with psycopg.connect(url) as conn:
            assert conn.execute("SELECT n FROM kept").fetchall() == [(42,)]
    finally:
        server.stop(mode="immediate")
    assert not server.alive()


def test_a_postmaster_killed_with_its_backends_starts_again_at_the_first_attempt(tmp_path: Path) -> None:
    """A crash of the whole stack: the killed postmaster stays a zombie until PID 1 reaps it, which
    PostgreSQL takes for a running server; ``start`` waits for it to go instead of failing (which cost
    the supervisor a failed restart and a doubled delay)."""
    server = EmbeddedPostgres(tmp_path / "pg", free_port())
    url = server.start()
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE TABLE kept (n int)")
            conn.execute("INSERT INTO kept VALUES (7)")
        pid = server.postmaster_pid()
        assert pid is not None
        postmaster = psutil.Process(pid)
        for process in [postmaster, *postmaster.children()]:
            # a backend listed a moment ago may be gone already: the postmaster's death ends it too
            with contextlib.suppress(psutil.NoSuchProcess):
                process.kill()
        deadline = time.monotonic() + 10
        while server.alive() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not server.alive()

        server.start()  # once: no PostgresCommandFailed
        with psycopg.connect(url) as conn:
            assert conn.execute("SELECT n FROM kept").fetchall() == [(7,)]
    finally:
        server.stop(mode="immediate")


@pytest.mark.skipif(sys.platform != "linux", reason="syncfs is Linux's")
@pytest.mark.skipif(bool(os.environ.get("TEST_DATABASE_URL")), reason="an external server: its own settings")
def test_after_a_crash_the_cluster_syncs_its_data_folder_with_one_syncfs(postgres_url: str) -> None:
    """Not a file at a time: with the rest of the stack booting, that took seconds."""
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SHOW recovery_init_sync_method").fetchone() == ("syncfs",)


def test_a_killed_broker_is_dead_and_starts_again_under_a_new_cluster_id(tmp_path: Path) -> None:
    broker = DevBroker(free_port(), tmp_path / "broker.log")
    broker.start()
    try:
        first = broker.cluster_id
        assert broker.alive() and broker.process is not None
        broker.process.send_signal(signal.SIGKILL)
        broker.process.wait(10)
        assert not broker.alive()
        broker.stop()
        broker.start()
        assert broker.alive() and broker.cluster_id != first
    finally:
        broker.stop()
    assert not broker.alive()


@pytest.mark.skipif(os.geteuid() != 0, reason="only as root does the cluster belong to another user")
def test_stop_still_stops_the_postmaster_when_pg_ctl_cannot_reach_the_data_folder(tmp_path: Path) -> None:
    parent = tmp_path / "locked"
    server = EmbeddedPostgres(parent / "pg", free_port())
    server.start()
    try:
        parent.chmod(0o700)  # what a new pytest session does to its temporary root under our feet
        server.stop()
        assert not server.alive()
    finally:
        parent.chmod(0o755)
        server.stop(mode="immediate")


def test_the_test_sessions_cluster_is_the_scratch_kind(postgres_url: str) -> None:
    """The suite's own cluster skips every fsync (tests/conftest.py); ``make run``'s does not
    (the test above, and ``libs/devstack/run.py`` builds the default, durable one)."""
    if os.environ.get("TEST_DATABASE_URL"):
        pytest.skip("an external server: its own settings")
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SHOW fsync").fetchone() == ("off",)
        assert conn.execute("SHOW full_page_writes").fetchone() == ("off",)
