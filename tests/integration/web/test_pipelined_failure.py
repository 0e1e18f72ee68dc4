"""A command's pipelined transaction that the database refuses (a 409 on the append) must not leave
its pooled connection unable to run a statement psycopg believes prepared."""

from __future__ import annotations

import uuid

import psycopg
import pytest
from psycopg_pool import ConnectionPool

from libs.web.context import _pipelined_transaction


def test_after_refused_pipelines_the_pooled_connection_still_runs_every_statement(postgres_url: str) -> None:
    table = f"prep_{uuid.uuid4().hex[:10]}"
    with ConnectionPool(postgres_url, min_size=1, max_size=1, open=True) as pool:  # always the same slot
        with pool.connection() as conn:
            conn.execute(f"CREATE TABLE {table} (id int PRIMARY KEY)")
            conn.execute(f"INSERT INTO {table} VALUES (1)")
        probe = f"SELECT count(*) FROM {table} WHERE id = %s"
        for i in range(12):  # past psycopg's prepare_threshold (5) for both statements
            with (
                pytest.raises(psycopg.errors.UniqueViolation),
                pool.connection() as conn,
                _pipelined_transaction(conn),
            ):
                conn.execute(probe, (i,))
                conn.execute(f"INSERT INTO {table} VALUES (1)")  # refused: the rest is skipped
                conn.execute(probe, (i + 1,))
        with pool.connection() as conn:
            for _ in range(12):
                assert conn.execute(probe, (1,)).fetchone() == (1,)
