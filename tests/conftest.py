"""Fixtures that start the real components: embedded PostgreSQL and the Kafka-protocol dev broker.

Nothing here is mocked. One PostgreSQL cluster serves the whole session (each test gets its own
schema); the broker is per session too, and tests that restart a broker start their own.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from libs.devstack.broker import DevBroker
from libs.devstack.ports import free_port
from libs.devstack.postgres import EmbeddedPostgres

# The machine's speed at the start and at the end of the run, in its header and closing lines: the
# suite's time reads only beside it (harness/machine.py). pytester runs that plugin in
# tests/unit/test_machine_speed.py.
pytest_plugins = ("harness.machine", "pytester")

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
    server = EmbeddedPostgres(tmp_root / "pg", free_port(), durable=False)  # scratch: no fsync
    url = server.start()
    yield url
    _stop_database_listeners()
    server.stop(mode="immediate")


def _stop_database_listeners() -> None:
    """Threads of this process that keep a connection to the session's database open and reconnect
    when it drops: stopped before it goes away, so none prints its failures after the session."""
    notify = sys.modules.get("services.match.notify")
    if notify is not None:
        notify.close_all()


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


# -- running the suite: in parallel (`make test`), and in CI -----------------------------------------

# Tests that run one after the other on one worker each (`make test`: ``-n N --dist loadgroup``):
# they start `make run` itself or whole stacks, and wait for them with time limits that two of them
# at once on 2 cores would not meet. The first prefix that matches a test's path names its group;
# the groups run side by side, and everything else spreads over every worker. "stacks-a" and
# "stacks-b" each hold modules that share one stack (tests/e2e/conftest.py: the stack of the worker
# that runs them); "own-stacks" those that start their own. The groups are handed out before any
# other test, in the order they first appear here: longest first. A run lasts at least as long as
# its longest group: keep them of about equal length (docs/testing.md).
SERIAL_GROUPS = (
    ("tests/e2e/test_web_client", "long-stacks"),
    ("tests/e2e/test_worked_analysis", "long-stacks"),
    ("tests/e2e/test_make_run", "make-run"),
    ("tests/e2e/test_recovery", "make-run"),
    ("tests/e2e/test_arena_e2e", "stacks-a"),
    ("tests/e2e/test_ranked_e2e", "stacks-a"),
    ("tests/e2e/test_line_e2e", "stacks-a"),
    ("tests/e2e/test_match_e2e", "stacks-a"),
    ("tests/e2e/test_backup_restore", "own-stacks"),
    ("tests/e2e/test_accounts_http", "own-stacks"),
    ("tests/e2e/test_many_waiting", "own-stacks"),
    ("tests/e2e/test_production_celery", "own-stacks"),
    ("tests/e2e/test_waiting_apart", "own-stacks"),
    ("tests/e2e/test_match_stream_e2e", "own-stacks"),
    ("tests/e2e/test_many_replicas", "own-stacks"),
    ("tests/e2e/", "stacks-b"),  # economy, fair play, the whole loop, and a new module
    # not a stack: its module fixture (100,000 packs, ~15 s) is then built once, not on every worker
    ("tests/unit/economy/test_pack_statistics", "pack-statistics"),
    # the renderings and validators (tests/unit/deploy), the planted tree and its lint-imports run
    # are made once per process: on one worker, once
    ("tests/unit/deploy/", "deploy"),
    ("tests/unit/test_import_contracts", "import-contracts"),
)


def serial_group(nodeid: str) -> str | None:
    """The serial group of the test ``nodeid``, or None for a test that may run anywhere."""
    return next((group for prefix, group in SERIAL_GROUPS if nodeid.startswith(prefix)), None)


def groups_in_order() -> list[str]:
    """The serial groups in the order they are handed out: as they first appear in SERIAL_GROUPS
    (longest first)."""
    return list(dict.fromkeys(group for _, group in SERIAL_GROUPS))


# Skips that are right in CI too: they depend on the platform or on a server the person running the
# suite chose, never on a tool the project failed to install (.ci/run installs those).
SKIPS_ALLOWED_IN_CI = (
    "syncfs is Linux's",
    "an external server: its own settings",
)


def _serial_scheduler(config: pytest.Config, log: Any) -> Any:
    from xdist.scheduler import LoadGroupScheduling

    class SerialGroupsScheduling(LoadGroupScheduling):
        """xdist's ``loadgroup`` with the groups of ``SERIAL_GROUPS``. (pytest 9 keeps a node's id
        where xdist's ``xdist_group`` mark no longer changes it, so the group is told by path, on the
        controller.)"""

        handed_out = False

        def _split_scope(self, nodeid: str) -> str:
            return serial_group(nodeid) or super()._split_scope(nodeid)

        def _assign_work_unit(self, node: Any) -> None:
            """The serial groups first, in the order of ``groups_in_order``. xdist hands out the units
            with most tests first: the deploy tests (79) and import contracts (25) came before the
            e2e groups, and `make run`'s (4 tests, about 3 minutes) started behind the pack
            statistics, some 80 s into the run, its end the run's end."""
            if not self.handed_out:
                self.handed_out = True
                for group in reversed(groups_in_order()):
                    if group in self.workqueue:
                        self.workqueue.move_to_end(group, last=False)
            super()._assign_work_unit(node)

    return SerialGroupsScheduling(config, log)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    return _serial_scheduler(config, log) if config.getvalue("dist") == "loadgroup" else None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """In CI (``CI=true``) a skip fails the test unless its reason is on ``SKIPS_ALLOWED_IN_CI``: a
    test that needs a tool must find it installed (``.ci/run``), not pass by skipping silently."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if os.environ.get("CI") != "true" or not report.skipped or hasattr(report, "wasxfail"):
        return
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    reason = reason.removeprefix("Skipped: ")
    if any(allowed in reason for allowed in SKIPS_ALLOWED_IN_CI):
        return
    report.outcome = "failed"
    report.longrepr = f"skipped in CI, where nothing may be: {reason} (install it in .ci/run)"
