"""The one command path (``Repository.execute``/``get``, ``UnitOfWork``) against real PostgreSQL:
concurrent writers, the bound on retries, read models in the same transaction, snapshots, the cache."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

import pytest
from psycopg import sql

from libs.contracts import IntegrationEvent, integration_event
from libs.eventstore import (
    ConcurrencyError,
    EventStore,
    Fold,
    RecordedEvent,
    Repository,
    Snapshots,
    StreamCache,
    TooManyConflicts,
    UndeclaredEvent,
    UnitOfWork,
)


@integration_event("Counted", version=1)
@dataclass(frozen=True)
class Counted(IntegrationEvent):
    n: int = field(metadata={"doc": "how much"})


@integration_event("Undeclared", version=1)
@dataclass(frozen=True)
class Undeclared(IntegrationEvent):
    n: int = field(metadata={"doc": "anything"})


@dataclass(frozen=True)
class Tally:
    total: int = 0
    seen: tuple[int, ...] = ()


def _evolve(state: Tally, event: RecordedEvent) -> Tally:
    n = Counted.from_data(event.data).n
    return Tally(state.total + n, (*state.seen, n))


SHAPE = Snapshots(
    2,
    lambda s: {"total": s.total, "seen": list(s.seen)},
    lambda d: Tally(d["total"], tuple(d["seen"])),
    every=5,
)
PLAIN = Fold(Tally, _evolve)
SNAPSHOTTED = Fold(Tally, _evolve, snapshots=SHAPE)


def count(repo: Repository, stream: str, n: int, fold: Fold[Tally] = PLAIN) -> int:
    def command(uow: UnitOfWork) -> int:
        loaded = repo.get(uow, stream, fold)
        uow.append(stream, loaded.version, [Counted(n)])
        return loaded.state.total + n

    return repo.execute(command)


def test_concurrent_writers_all_land_once_in_a_gap_free_stream(store: EventStore) -> None:
    repo = Repository(store, attempts=50)
    threads, each = 8, 10
    barrier = threading.Barrier(threads)
    errors: list[BaseException] = []

    def writer(i: int) -> None:
        barrier.wait()
        try:
            for _ in range(each):
                count(repo, "tally", i + 1)
        except BaseException as exc:  # reported below: a thread's failure must fail the test
            errors.append(exc)

    workers = [threading.Thread(target=writer, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert errors == []
    events = store.read("tally")
    assert [e.version for e in events] == list(range(1, threads * each + 1))
    with store.pool.connection() as conn:
        assert repo.get(conn, "tally", PLAIN).state.total == each * sum(range(1, threads + 1))


def test_a_conflict_is_retried_at_most_attempts_times_then_refused(store: EventStore) -> None:
    store_first = Repository(store)
    count(store_first, "taken", 1)
    repo = Repository(store, attempts=3)
    calls = []

    def always_stale(uow: UnitOfWork) -> None:
        calls.append(1)
        uow.append("taken", 0, [Counted(5)])  # the stream is at 1: a conflict every time

    with pytest.raises(TooManyConflicts) as refused:
        repo.execute(always_stale)
    assert len(calls) == 3 and refused.value.attempts == 3 and refused.value.actual == 1
    assert isinstance(refused.value, ConcurrencyError)
    assert [e.version for e in store.read("taken")] == [1]


def test_a_conflict_is_retried_from_a_fresh_read_and_other_errors_are_not(store: EventStore) -> None:
    repo = Repository(store)
    reads: list[int] = []

    def raced_once(uow: UnitOfWork) -> None:
        loaded = repo.get(uow, "raced", PLAIN)
        reads.append(loaded.version)
        if len(reads) == 1:
            count(repo, "raced", 7)  # another writer gets in between the read and the append
        uow.append("raced", loaded.version, [Counted(1)])

    repo.execute(raced_once)
    assert reads == [0, 1]
    calls = []

    def refused(uow: UnitOfWork) -> None:
        calls.append(1)
        raise LookupError("a domain error")

    with pytest.raises(LookupError):
        repo.execute(refused)
    assert calls == [1]


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


def test_an_undeclared_event_is_refused(store: EventStore) -> None:
    repo = Repository(store, declared=(Counted,))
    with pytest.raises(UndeclaredEvent):
        repo.execute(lambda uow: uow.append("u", 0, [Undeclared(1)]))
    assert store.read("u") == []


def test_a_snapshot_and_its_tail_fold_to_the_full_fold(store: EventStore) -> None:
    repo = Repository(store)
    for n in range(1, 13):
        count(repo, "long", n, SNAPSHOTTED)  # each load folds what came since the last snapshot
    version, kept = store.load_snapshot("long") or (0, {})
    assert 0 < version < 12 and kept["shape"] == SHAPE.version
    with store.pool.connection() as conn:
        full = repo.get(conn, "long", PLAIN)
        reads: list[int] = []
        original = store.read
        store.read = lambda stream, from_version=1, *a, **k: (
            reads.append(from_version) or original(stream, from_version, *a, **k)
        )  # type: ignore[method-assign]
        try:
            from_snapshot = repo.get(conn, "long", SNAPSHOTTED)
        finally:
            store.read = original  # type: ignore[method-assign]
    assert reads == [version + 1]  # only the tail was read
    assert from_snapshot == full and full.state.seen == tuple(range(1, 13))


def test_a_snapshot_of_another_state_shape_is_ignored(store: EventStore) -> None:
    repo = Repository(store)
    for n in range(3):
        count(repo, "old", n)
    store.save_snapshot("old", 3, {"shape": 1, "state": {"total": 999, "seen": []}})
    with store.pool.connection() as conn:
        assert repo.get(conn, "old", SNAPSHOTTED).state == Tally(3, (0, 1, 2))


def test_the_cache_drops_a_state_whose_append_rolled_back(store: EventStore) -> None:
    repo = Repository(store)
    cached = Fold(Tally, _evolve, cache=StreamCache())
    count(repo, "k", 1, cached)

    def rolled_back(uow: UnitOfWork) -> None:
        loaded = repo.get(uow, "k", cached)
        uow.append("k", loaded.version, [Counted(100)])
        repo.get(uow, "k", cached)  # the cache now holds a state with the 100
        raise RuntimeError("roll back")

    with pytest.raises(RuntimeError):
        repo.execute(rolled_back)
    count(repo, "k", 2, cached)  # another event takes version 2
    with store.pool.connection() as conn:
        assert repo.get(conn, "k", cached).state == Tally(3, (1, 2))


def test_planned_commands_are_written_together_and_those_that_lost_left_out(store: EventStore) -> None:
    repo = Repository(store)
    count(repo, "moved", 1)  # planned at version 0, but the stream moved meanwhile

    def planned(stream: str, expected: int) -> Any:
        return lambda uow: uow.append(stream, expected, [Counted(1)], pipelined=True)

    with store.pool.connection() as conn, conn.transaction():
        done = repo.execute_planned(conn, [planned("a", 0), planned("moved", 0), planned("b", 0)])
    assert done == [0, 2]
    assert [len(store.read(s)) for s in ("a", "moved", "b")] == [1, 1, 1]
    with store.pool.connection() as conn, conn.transaction():
        assert repo.execute_planned(conn, [planned("a", 1), planned("b", 1)]) == [0, 1]
    assert [len(store.read(s)) for s in ("a", "b")] == [2, 2]


def test_a_snapshot_another_transaction_is_writing_is_skipped_without_waiting(store: EventStore) -> None:
    with store.pool.connection() as first, first.transaction():
        store.save_snapshot("busy", 5, {"n": 5}, conn=first)
        with store.pool.connection() as second, second.transaction():
            second.execute("SET LOCAL lock_timeout = '2s'")  # waiting for first's row would fail
            store.save_snapshot("busy", 7, {"n": 7}, conn=second)  # skipped: first is writing it
    assert store.load_snapshot("busy") == (5, {"n": 5})
    store.save_snapshot("busy", 9, {"n": 9})
    assert store.load_snapshot("busy") == (9, {"n": 9})


def test_the_snapshots_of_many_streams_are_read_together_those_without_left_out(store: EventStore) -> None:
    store.save_snapshot("a", 4, {"n": 4})
    store.save_snapshot("b", 9, {"n": 9})
    assert store.load_snapshots(["a", "b", "none"]) == {"a": (4, {"n": 4}), "b": (9, {"n": 9})}
    assert store.load_snapshots([]) == {}
