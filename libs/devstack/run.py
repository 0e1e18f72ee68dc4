"""``make run``: start everything, print the base URL, stop everything on Ctrl-C.

PostgreSQL, the Kafka-protocol broker and Celery's broker are embedded unless ``DATABASE_URL``,
``KAFKA_BOOTSTRAP_SERVERS`` or ``CELERY_BROKER_URL`` is set. Every child runs in its own process
group. A part that dies is started again with backoff (``libs/devstack/supervisor.py``); on exit
every process is terminated (then killed), then the broker and PostgreSQL, so nothing is left.
"""

from __future__ import annotations

import signal
import sys
import time
from pathlib import Path

from libs import config
from libs.config import data_dir, forget_stack_database, record_stack_database, record_stack_kafka
from libs.db.migrate_all import migrate_all
from libs.devstack import processes
from libs.devstack.broker import DevBroker
from libs.devstack.ports import port_is_open
from libs.devstack.postgres import EmbeddedPostgres
from libs.devstack.supervisor import ChildProcess, Infrastructure, Supervisor


def _supervise_database(supervisor: Supervisor, folder: Path) -> str:
    url = config.DATABASE_URL.get()
    if url:
        return url
    server = EmbeddedPostgres(folder / "pg", config.PG_PORT.get())
    supervisor.add(Infrastructure("postgres", server, lambda: f"postmaster pid {server.postmaster_pid()}"))
    # Tools run without DATABASE_URL (export, rebuild, replay, dead letters) find it here.
    record_stack_database(server.url)
    print(f"  postgres   {server.url} (data in {server.data})")
    return server.url


def _supervise_kafka(supervisor: Supervisor, folder: Path) -> str:
    bootstrap = config.KAFKA_BOOTSTRAP_SERVERS.get()
    if bootstrap:
        return bootstrap
    broker = DevBroker(config.KAFKA_PORT.get(), folder / "logs" / "broker.log")
    supervisor.add(Infrastructure("kafka", broker, lambda: f"cluster {broker.cluster_id}"))
    print(f"  kafka      {broker.bootstrap} (Tansu dev broker, memory only)")
    record_stack_kafka(broker.bootstrap)  # tools (arcana replay --topic) find it here
    return broker.bootstrap


def main() -> int:
    folder = data_dir()
    logs = folder / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    port = config.PORT.get()
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
    supervisor = Supervisor()
    try:
        database_url = _supervise_database(supervisor, folder)
        kafka = _supervise_kafka(supervisor, folder)
        for svc, applied in migrate_all(database_url).items():
            print(f"  migrate    {svc}: {', '.join(applied) if applied else 'up to date'}")
        env = processes.base_env(database_url, kafka, config.CELERY_BROKER_URL.get() or None, folder)
        for component in processes.all_components(port, folder):
            child = ChildProcess(component, env, logs)
            supervisor.add(child)
            print(f"  {component.name:<22} {child.describe()}")
        deadline = time.monotonic() + 60
        while not stopping and not port_is_open(port) and time.monotonic() < deadline:
            supervisor.check()  # "up" only once the web answers (a newcomer's first curl works)
            time.sleep(0.2)
        if not port_is_open(port):
            print(f"the web is not answering on {port} yet; see {logs / 'web.log'}", file=sys.stderr)
        print(f"\nArcana is up: http://127.0.0.1:{port}  (Ctrl-C stops everything)\n", flush=True)
        while not stopping:
            supervisor.check()
            time.sleep(0.5)
    finally:
        print("Arcana: stopping", flush=True)
        supervisor.stop()
        forget_stack_database()  # nothing points to a stopped database
    return 0


if __name__ == "__main__":
    sys.exit(main())
