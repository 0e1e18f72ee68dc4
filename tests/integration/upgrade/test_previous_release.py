"""Issue 19, point 2: a rollback runs the previous release's code on the newer schema
(docs/upgrading.md). The previous release's tree is taken from git (``PREVIOUS_RELEASE``, bumped
at each release), the database is migrated by this tree, and the previous code must then find
nothing to migrate, append and read events, and read the events this tree wrote (and this tree
those it wrote). A new release's pods wait (``migrate_all --check``) until each migration of
their own schema has run."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import uuid
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path

import psycopg
import pytest
from psycopg import sql
from psycopg_pool import ConnectionPool

from libs.config import PROJECT_ROOT
from libs.db.migrate_all import check, migrate_all, pending_all, service_folders
from libs.eventstore import EventStore, Expect, NewEvent

PREVIOUS_RELEASE = "a21b2145df70908c2acd8bf2cd5ac1c925a02fcc"  # main before issue 19's changes

OLD_CODE = """
import sys, uuid
from psycopg_pool import ConnectionPool
from libs.db.migrate_all import migrate_all
from libs.eventstore import EventStore, Expect, NewEvent

url, stream = sys.argv[1], sys.argv[2]
applied = migrate_all(url)
assert not any(applied.values()), applied  # the newer schema already holds every older file
with ConnectionPool(url, min_size=1, max_size=2, open=True) as pool:
    store = EventStore(pool, "accounts")
    store.append(stream, Expect.ANY, [NewEvent("UpgradeProbed", {"by": "previous release"})])
    print(",".join(e.data["by"] for e in store.read(stream)))
"""


@pytest.fixture
def database(postgres_url: str) -> Iterator[str]:
    name = f"upgrade_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    yield psycopg.conninfo.make_conninfo(postgres_url, dbname=name)
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.fixture(scope="module")
def previous_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    archive = subprocess.run(
        ["git", "-C", str(PROJECT_ROOT), "archive", "--format=tar", PREVIOUS_RELEASE, "libs", "services"],
        check=True,
        capture_output=True,
    ).stdout
    root = tmp_path_factory.mktemp("previous-release")
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(root, filter="data")
    return root


def _run_previous(tree: Path, url: str, stream: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", OLD_CODE, url, stream],
        cwd=tree,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "ARCANA_DATA_DIR": str(tree / ".data")},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout.strip()


def test_the_previous_release_runs_on_the_new_schema(previous_tree: Path, database: str) -> None:
    migrate_all(database)
    assert check(database, None, wait=0) == 0
    stream = f"account-{uuid.uuid4()}"
    with ConnectionPool(database, min_size=1, max_size=2, open=True) as pool:
        store = EventStore(pool, "accounts")
        store.append(stream, Expect.NO_STREAM, [NewEvent("UpgradeProbed", {"by": "new release"})])
        assert _run_previous(previous_tree, database, stream) == "new release,previous release"
        assert [e.data["by"] for e in store.read(stream)] == ["new release", "previous release"]


def test_pods_of_a_new_release_wait_until_its_migrations_ran(previous_tree: Path, database: str) -> None:
    schemas = sorted(service_folders())
    assert check(database, schemas, wait=0, poll=0.1) == 1  # nothing migrated yet: init containers wait
    newest = pending_all(database, ["accounts"])["accounts"][-1]
    migrate_all(database)
    assert check(database, schemas, wait=0) == 0
    with psycopg.connect(database, autocommit=True) as conn:  # as if a release added that file
        conn.execute("DELETE FROM accounts.schema_migrations WHERE name = %s", (newest,))
    assert pending_all(database, ["accounts"]) == {"accounts": [newest]}
    assert check(database, ["ratings"], wait=0) == 0 and check(database, ["accounts"], wait=0) == 1
