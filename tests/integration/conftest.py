from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from psycopg import sql
from psycopg_pool import ConnectionPool

from libs.config import PROJECT_ROOT, Settings, record_stack_database
from libs.db import make_pool, migrate
from libs.eventstore import EventStore


@pytest.fixture
def pool(postgres_url: str) -> Iterator[ConnectionPool]:
    p = make_pool(postgres_url, min_size=1, max_size=25)
    yield p
    p.close()


@pytest.fixture
def store(postgres_url: str, pool: ConnectionPool, schema_name: str) -> EventStore:
    migrate(postgres_url, schema_name)
    return EventStore(pool, schema_name)


def run_tool(
    postgres_url: str,
    module: str,
    *args: str,
    stack_dir: Path | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``python -m module args`` as an operator or analyst runs it, against ``postgres_url``.

    With ``stack_dir`` the tool runs as right after ``make run``: no ``DATABASE_URL`` in its
    environment, ``ARCANA_DATA_DIR=stack_dir``, and ``postgres_url`` recorded there the way
    ``make run`` records the database it started. ``env``: further variables."""
    env = {**os.environ, "DATABASE_URL": postgres_url, **(env or {})}
    if stack_dir is not None:
        del env["DATABASE_URL"]
        env["ARCANA_DATA_DIR"] = str(stack_dir)
        with _data_dir(stack_dir):
            record_stack_database(postgres_url)
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        env=env,
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


@contextmanager
def _data_dir(folder: Path) -> Iterator[None]:
    before = os.environ.get("ARCANA_DATA_DIR")
    os.environ["ARCANA_DATA_DIR"] = str(folder)
    try:
        yield
    finally:
        if before is None:
            del os.environ["ARCANA_DATA_DIR"]
        else:
            os.environ["ARCANA_DATA_DIR"] = before


def row_counter(pool: ConnectionPool, schema: str, tables: tuple[str, ...]) -> Callable[[], dict[str, int]]:
    """A function counting the rows of ``tables``: compare before and after a refused request to
    show that nothing was written."""

    def count() -> dict[str, int]:
        with pool.connection() as conn:
            return {
                table: int(
                    conn.execute(
                        sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(schema, table))
                    ).fetchone()[0]
                )
                for table in tables
            }

    return count


def settings_for_tests(postgres_url: str, **changes: object) -> Settings:
    """Settings for an app under test: the fixture database, no broker, explicit secrets."""
    base = Settings(
        database_url=postgres_url,
        kafka_bootstrap_servers="",
        celery_broker_url="",
        token_secret="test-secret-" + "s" * 60,
        token_ttl_seconds=3600,
        operator_token=None,
        max_body_bytes=16 * 1024,
    )
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]
