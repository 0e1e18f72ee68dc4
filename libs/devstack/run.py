"""``make run``: start everything, print the base URL, stop everything on Ctrl-C.

PostgreSQL, the Kafka-protocol broker and Celery's broker are embedded unless ``DATABASE_URL``,
``KAFKA_BOOTSTRAP_SERVERS`` or ``CELERY_BROKER_URL`` is set. Every child runs in its own process
group and is terminated (then killed) on exit, so nothing is left running.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from contextlib import ExitStack, suppress
from pathlib import Path

from libs.config import PROJECT_ROOT, data_dir, forget_stack_database, record_stack_database
from libs.db.migrate_all import migrate_all
from libs.devstack import processes
from libs.devstack.broker import DevBroker
from libs.devstack.ports import port_is_open
from libs.devstack.postgres import EmbeddedPostgres


def _start_database(stack: ExitStack, folder: Path) -> str:
    url = os.environ.get("DATABASE_URL")
    if url:
        return url
    server = EmbeddedPostgres(folder / "pg", int(os.environ.get("ARCANA_PG_PORT", "55432")))
    url = server.start()
    stack.callback(server.stop)
    # Tools run without DATABASE_URL (export, rebuild, replay, dead letters) find it here.
    record_stack_database(url)
    stack.callback(forget_stack_database)
    print(f"  postgres   {url} (data in {server.data})")
    return url


def _start_kafka(stack: ExitStack, folder: Path) -> str:
    bootstrap = os.environ.get("KAFKA_BOOTSTRAP_SERVERS")
    if bootstrap:
        return bootstrap
    broker = DevBroker(int(os.environ.get("ARCANA_KAFKA_PORT", "19092")), folder / "logs" / "broker.log")
    bootstrap = broker.start()
    stack.callback(broker.stop)
    print(f"  kafka      {bootstrap} (Tansu dev broker, memory only)")
    return bootstrap


def _spawn(component: processes.Component, env: dict[str, str], logs: Path) -> subprocess.Popen[bytes]:
    log = open(logs / f"{component.name}.log", "ab")  # noqa: SIM115 - closed with the process
    return subprocess.Popen(
        component.argv,
        env={**env, **component.env},
        cwd=PROJECT_ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def _stop(children: list[tuple[processes.Component, subprocess.Popen[bytes]]]) -> None:
    # SIGTERM to each leader only: gunicorn and Celery then stop their own children gracefully.
    for _, proc in children:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 10
    for _, proc in children:
        with suppress(subprocess.TimeoutExpired):
            proc.wait(max(0.1, deadline - time.monotonic()))
        _kill_group(proc.pid)  # a leader that hung, or anything it left behind
        proc.wait()


def _kill_group(pgid: int) -> None:
    with suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)


def main() -> int:
    folder = data_dir()
    logs = folder / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    port = int(os.environ.get("ARCANA_PORT", "8000"))
    if port_is_open(port):
        print(f"port {port} is taken; set ARCANA_PORT", file=sys.stderr)
        return 2
    stopping = False

    def on_signal(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, on_signal)
    print("Arcana: starting")
    with ExitStack() as stack:
        database_url = _start_database(stack, folder)
        kafka = _start_kafka(stack, folder)
        for svc, applied in migrate_all(database_url).items():
            print(f"  migrate    {svc}: {', '.join(applied) if applied else 'up to date'}")
        env = processes.base_env(database_url, kafka, os.environ.get("CELERY_BROKER_URL"), folder)
        children = [(c, _spawn(c, env, logs)) for c in processes.all_components(port, folder)]
        stack.callback(_stop, children)
        for component, proc in children:
            print(f"  {component.name:<22} pid {proc.pid}  log {logs / (component.name + '.log')}")
        print(f"\nArcana is up: http://127.0.0.1:{port}  (Ctrl-C stops everything)\n")
        while not stopping:
            for component, proc in children:
                if proc.poll() is not None:
                    print(f"{component.name} exited with {proc.returncode}; stopping", file=sys.stderr)
                    stopping = True
            time.sleep(0.5)
        print("Arcana: stopping")
    return 0


if __name__ == "__main__":
    sys.exit(main())
