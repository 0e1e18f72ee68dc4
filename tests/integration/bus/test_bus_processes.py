"""The relay and consumer commands with several services in one process, as ``make run`` and the
e2e stacks start them (``libs/devstack/processes.py``): ``python -m libs.kit.relay --service a
--service b ...`` publishes every service's outbox, ``python -m libs.kit.consume match ratings``
runs both services' subscriptions; SIGTERM stops every thread and the process ends cleanly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import uuid
from pathlib import Path

from psycopg import sql
from psycopg_pool import ConnectionPool

from libs.bus import OutboxRelay, topic_for
from libs.config import PROJECT_ROOT
from libs.db import migrate
from libs.eventstore import EventStore, Expect, NewEvent
from libs.layout import SERVICES_DIR
from tests.integration.bus.helpers import RawReader, append_events, wait_until


def _env(postgres_url: str, kafka_bootstrap: str, **extra: str) -> dict[str, str]:
    env = {**os.environ, "DATABASE_URL": postgres_url, "KAFKA_BOOTSTRAP_SERVERS": kafka_bootstrap, **extra}
    env.pop("ARCANA_FAULT", None)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT_ROOT), os.environ.get("PYTHONPATH")]))
    return env


def _start(argv: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", *argv], cwd=PROJECT_ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
        )


def _terminate(proc: subprocess.Popen[bytes], log: Path) -> None:
    """SIGTERM: every thread stops after its step and the process ends with status 0."""
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, log.read_text(errors="replace")[-3000:]


def test_one_relay_process_publishes_the_outbox_of_every_service_it_is_given(
    store: EventStore, pool: ConnectionPool, postgres_url: str, kafka_bootstrap: str, tmp_path: Path
) -> None:
    other = EventStore(pool, f"{store.schema}_b")
    migrate(postgres_url, other.schema)
    first, second = (f"svc{uuid.uuid4().hex[:10]}" for _ in range(2))
    events = {first: append_events(store, 30, streams=3), second: append_events(other, 20, streams=2)}
    readers = {svc: RawReader(kafka_bootstrap, topic_for(svc)) for svc in events}
    log = tmp_path / "relays.log"
    argv = ["libs.kit.relay", "--service", first, "--schema", store.schema, "--service", second]
    relay = _start([*argv, "--schema", other.schema], _env(postgres_url, kafka_bootstrap), log)
    try:
        for svc, published in events.items():
            messages = readers[svc].read_at_least(len(published), timeout=60)
            assert {m.event["event_id"] for m in messages} == {str(e.event_id) for e in published}
        assert relay.poll() is None, log.read_text(errors="replace")[-3000:]
    finally:
        for reader in readers.values():
            reader.close()
        _terminate(relay, log)


def test_one_consumer_process_runs_the_subscriptions_of_every_service_it_is_given(
    pool: ConnectionPool, postgres_url: str, kafka_bootstrap: str, schema_name: str, tmp_path: Path
) -> None:
    """match and ratings both keep accounts' ``PlayerRegistered``: each in its own schema's inbox."""
    schemas = {svc: f"{schema_name}_{svc}" for svc in ("match", "ratings")}
    for svc, schema in schemas.items():
        migrate(postgres_url, schema, [SERVICES_DIR / svc / "migrations"])
    accounts = EventStore(pool, f"{schema_name}_accounts")
    migrate(postgres_url, accounts.schema)
    player = str(uuid.uuid4())
    registration = NewEvent("PlayerRegistered", {"player_id": player, "username": "ada"})
    [registered] = accounts.append(f"player-{player}", Expect.ANY, [registration])
    relay, published = OutboxRelay(accounts, "accounts", kafka_bootstrap), threading.Event()
    publishing = threading.Thread(target=relay.run, args=(published,))
    publishing.start()
    try:
        wait_until(lambda: relay.progress()[0] >= registered.position, 60, "PlayerRegistered published")
    finally:
        published.set()
        publishing.join()

    log = tmp_path / "consumers.log"
    env = _env(
        postgres_url,
        kafka_bootstrap,
        ARCANA_MATCH_SCHEMA=schemas["match"],
        ARCANA_RATINGS_SCHEMA=schemas["ratings"],
        ARCANA_KAFKA_GROUP_PREFIX=f"{schema_name}.",
        ARCANA_TOKEN_SECRET="consumers-test-" + "c" * 40,
    )
    consumers = _start(["libs.kit.consume", "match", "ratings"], env, log)

    def kept_by(schema: str) -> bool:
        query = sql.SQL("SELECT 1 FROM {} WHERE event_id = %s").format(sql.Identifier(schema, "inbox"))
        with pool.connection() as conn:
            return conn.execute(query, (registered.event_id,)).fetchone() is not None

    try:
        for svc, schema in schemas.items():
            wait_until(lambda schema=schema: kept_by(schema), 90, f"{svc} applied PlayerRegistered")
        assert consumers.poll() is None, log.read_text(errors="replace")[-3000:]
    finally:
        _terminate(consumers, log)
