"""What the one command path (``Repository.execute``, ``UnitOfWork``) needs of PostgreSQL itself:
read models in the same transaction, a consumer's transaction, snapshot writers that never wait.
The rest is store-agnostic: tests/integration/eventstore/test_store_contract.py (on both stores)
and tests/unit/eventstore/test_command_path.py (on the in-memory one)."""

from __future__ import annotations

from typing import Any

import pytest
from psycopg import sql

from libs.eventstore import (
    EventStore,
    Repository,
    UnitOfWork,
)
from tests.tally import Counted, count


@pytest.fixture
def marks(store: EventStore) -> sql.Identifier:
    table = sql.Identifier(store.schema, "marks")
    with store.pool.connection() as conn:
        conn.execute(sql.SQL("CREATE TABLE {} (stream TEXT, version INT)").format(table))
    return table


def _marks(store: EventStore, table: sql.Identifier) -> list[tuple[Any, ...]]:
    with store.pool.connection() as conn:
        return conn.execute(
            sql.SQL("SELECT stream, version FROM {} ORDER BY version").format(table)
        ).fetchall()


def test_read_models_commit_with_the_events_or_not_at_all(store: EventStore, marks: sql.Identifier) -> None:
    def project(conn: Any, recorded: Any) -> None:
        for r in recorded:
            conn.execute(sql.SQL("INSERT INTO {} VALUES (%s, %s)").format(marks), (r.stream, r.version))

    repo = Repository(store, project=project)
    count(repo, "p", 1)

    def fails_after_append(uow: UnitOfWork) -> None:
        uow.append("p", 1, [Counted(2)])
        raise RuntimeError("after the append")

    with pytest.raises(RuntimeError):
        repo.execute(fails_after_append)
    assert _marks(store, marks) == [("p", 1)] and len(store.read("p")) == 1
    repo.execute(lambda uow: uow.append("p", 1, [Counted(2)], pipelined=True))
    assert _marks(store, marks) == [("p", 1), ("p", 2)] and len(store.read("p")) == 2


def test_in_a_consumers_transaction_each_attempt_is_a_savepoint(
    store: EventStore, marks: sql.Identifier
) -> None:
    repo = Repository(store)
    count(repo, "c", 1)
    attempts = []
    with store.pool.connection() as conn, conn.transaction():
        conn.execute(sql.SQL("INSERT INTO {} VALUES ('inbox', 0)").format(marks))

        def second_try_wins(uow: UnitOfWork) -> None:
            attempts.append(1)
            uow.append("c", 0 if len(attempts) == 1 else 1, [Counted(1)])

        repo.execute(second_try_wins, conn=conn)
    assert len(attempts) == 2 and _marks(store, marks) == [("inbox", 0)]
    assert [e.version for e in store.read("c")] == [1, 2]


def test_a_snapshot_another_transaction_is_writing_is_skipped_without_waiting(store: EventStore) -> None:
    with store.pool.connection() as first, first.transaction():
        store.save_snapshot("busy", 5, {"n": 5}, conn=first)
        with store.pool.connection() as second, second.transaction():
            second.execute("SET LOCAL lock_timeout = '2s'")  # waiting for first's row would fail
            store.save_snapshot("busy", 7, {"n": 7}, conn=second)  # skipped: first is writing it
    assert store.load_snapshot("busy") == (5, {"n": 5})
    store.save_snapshot("busy", 9, {"n": 9})
    assert store.load_snapshot("busy") == (9, {"n": 9})
