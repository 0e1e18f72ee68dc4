"""`make run` starts the whole stack on a fresh data folder, serves the API, and Ctrl-C stops it all."""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import requests

from harness.waiting import still_running
from libs.config import DATABASE_URL_FILE, PROJECT_ROOT
from libs.devstack.ports import free_port


def _wait_ready(base: str, proc: subprocess.Popen[bytes], timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"make run exited early ({proc.returncode}):\n{_printed(proc)[-3000:]}")
        try:
            if requests.get(f"{base}/readyz", timeout=2).status_code == 200:
                return
        except requests.RequestException:  # not listening yet, or slow under load
            pass
        time.sleep(0.3)
    raise AssertionError("the stack did not become ready")


def _printed(proc: subprocess.Popen[bytes]) -> str:
    """What it printed so far, without waiting for the end of its output (a child it started may
    hold it open)."""
    chunks = []
    while proc.stdout and select.select([proc.stdout], [], [], 0)[0]:
        chunk = os.read(proc.stdout.fileno(), 65536)
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks).decode(errors="replace")


def test_run_serves_the_api_and_ctrl_c_leaves_nothing_running(tmp_path: Path) -> None:
    port = free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "KAFKA_BOOTSTRAP_SERVERS", "CELERY_BROKER_URL")
    }
    env.update(
        ARCANA_DATA_DIR=str(tmp_path / "data"),
        ARCANA_PORT=str(port),
        ARCANA_PG_PORT=str(free_port()),
        ARCANA_KAFKA_PORT=str(free_port()),
        ARCANA_SCRYPT_N="1024",
        PYTHONPATH=str(PROJECT_ROOT),
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "libs.devstack.run"],
        cwd=PROJECT_ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(base, proc)
        # Every child (gunicorn, Celery, relays, consumers, the broker) plus PostgreSQL, which
        # pg_ctl detaches, found by its data folder.
        started = psutil.Process(proc.pid).children(recursive=True) + _stack_processes(tmp_path, port)
        names = " ".join(" ".join(p.cmdline()) for p in started)
        for part in ("gunicorn", "celery", "libs.kit.relay", "tansu", "postgres"):
            assert part in names, f"{part} is not running"

        body = {"username": "runner", "password": "long enough secret"}
        assert requests.post(f"{base}/v1/accounts", json=body, timeout=10).status_code == 201
        token = requests.post(f"{base}/v1/sessions", json=body, timeout=10).json()["token"]
        me = requests.get(f"{base}/v1/me", headers={"Authorization": f"Bearer {token}"}, timeout=10)
        assert me.status_code == 200 and me.json()["username"] == "runner"

        # Tools find the stack's database with no DATABASE_URL (`arcana export`, which `make
        # export-events` runs).
        assert "DATABASE_URL" not in env and (tmp_path / "data" / DATABASE_URL_FILE).is_file()
        exported = subprocess.run(
            [sys.executable, "-m", "services.cli", "export", "--service", "accounts", "--quiet"],
            cwd=PROJECT_ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert exported.returncode == 0, exported.stderr
        types = [json.loads(line)["type"] for line in exported.stdout.splitlines()]
        assert types == ["PlayerRegistered", "PlayerLoggedIn"]  # the account, then the log-in above
    finally:
        with contextlib.suppress(ProcessLookupError):  # exited early: the failure above says why
            os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
        output = proc.communicate(timeout=60)[0].decode()
    assert "Arcana is up" in output and "Arcana: stopping" in output
    assert not (tmp_path / "data" / DATABASE_URL_FILE).exists()  # nothing points to a stopped database
    left = still_running(started)
    assert left == [], [p.cmdline() for p in left]


def _stack_processes(tmp_path: Path, port: int) -> list[psutil.Process]:
    """Every process whose command line names this stack's data folder or port."""
    marks = (str(tmp_path), f":{port}")
    found = []
    for p in psutil.process_iter(["cmdline"]):
        cmdline = " ".join(p.info["cmdline"] or [])
        if any(mark in cmdline for mark in marks) and p.pid != os.getpid():
            found.append(p)
    return found
