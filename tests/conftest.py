"""Fixtures that start the real components: embedded PostgreSQL and the Kafka-protocol dev broker.

Nothing here is mocked. One PostgreSQL cluster serves the whole session (each test gets its own
schema); the broker is per session too, and tests that restart a broker start their own.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from libs.devstack.broker import DevBroker
from libs.devstack.ports import free_port
from libs.devstack.postgres import EmbeddedPostgres

# Every relay the tests start (in this process or in a stack's) refuses an event that does not match
# its topic's declared schema (libs/bus/relay.py), so every published event is checked.
os.environ.setdefault("ARCANA_SCHEMA_CHECK", "strict")


@pytest.fixture(scope="session")
def tmp_root() -> Iterator[Path]:
    root = Path(tempfile.mkdtemp(prefix="arcana-test-"))
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_url(tmp_root: Path) -> Iterator[str]:
    """A real PostgreSQL for the session: the embedded one, or TEST_DATABASE_URL when set."""
    external = os.environ.get("TEST_DATABASE_URL")
    if external:
        yield external
        return
    server = EmbeddedPostgres(tmp_root / "pg", free_port())
    url = server.start()
    yield url
    server.stop(mode="immediate")


@pytest.fixture(scope="session")
def kafka_bootstrap(tmp_root: Path) -> Iterator[str]:
    """A real Kafka-protocol broker for the session (Tansu), or TEST_KAFKA_BOOTSTRAP_SERVERS."""
    external = os.environ.get("TEST_KAFKA_BOOTSTRAP_SERVERS")
    if external:
        yield external
        return
    broker = DevBroker(free_port(), tmp_root / "broker.log")
    yield broker.start()
    broker.stop()


@pytest.fixture
def schema_name() -> str:
    return f"t_{uuid.uuid4().hex[:12]}"


@pytest.fixture
def make_broker(tmp_root: Path) -> Iterator[type]:
    """Start extra brokers (e.g. to stop one and start a new empty one); all stopped at the end."""
    started: list[DevBroker] = []

    class _Factory:
        @staticmethod
        def start(port: int | None = None) -> DevBroker:
            broker = DevBroker(port or free_port(), tmp_root / "broker-extra.log")
            broker.start()
            started.append(broker)
            return broker

    yield _Factory
    for broker in started:
        broker.stop()
