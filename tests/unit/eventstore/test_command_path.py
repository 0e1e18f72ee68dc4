"""The one command path (``Repository.execute``/``get``, ``UnitOfWork``) on the in-memory event store:
retries from a fresh read, declared events, snapshots and their shapes, the cache after a rollback.
(Moved from tests/integration/eventstore/test_repository.py: the store is held to the PostgreSQL
one's contract by tests/integration/eventstore/test_store_contract.py; what needs SQL, a read model
or PostgreSQL's locks, stays there.)"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from libs.contracts import IntegrationEvent, integration_event
from libs.eventstore import (
    Fold,
    MemoryEventStore,
    RecordedEvent,
    Repository,
    Snapshots,
    StreamCache,
    UndeclaredEvent,
    UnitOfWork,
)
from tests.tally import PLAIN, Counted, Tally, count, evolve


@integration_event("Undeclared", version=1)
@dataclass(frozen=True)
class Undeclared(IntegrationEvent):
    n: int = field(metadata={"doc": "anything"})


SHAPE = Snapshots(
    2,
    lambda s: {"total": s.total, "seen": list(s.seen)},
    lambda d: Tally(d["total"], tuple(d["seen"])),
    every=5,
)
SNAPSHOTTED = Fold(Tally, evolve, snapshots=SHAPE)


@pytest.fixture
def store() -> MemoryEventStore:
    return MemoryEventStore()


def test_a_conflict_is_retried_from_a_fresh_read_and_other_errors_are_not(store: MemoryEventStore) -> None:
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


def test_an_undeclared_event_is_refused(store: MemoryEventStore) -> None:
    repo = Repository(store, declared=(Counted,))
    with pytest.raises(UndeclaredEvent):
        repo.execute(lambda uow: uow.append("u", 0, [Undeclared(1)]))
    assert store.read("u") == []


def test_a_snapshot_and_its_tail_fold_to_the_full_fold(
    store: MemoryEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = Repository(store)
    for n in range(1, 13):
        count(repo, "long", n, SNAPSHOTTED)  # each load folds what came since the last snapshot
    version, kept = store.load_snapshot("long") or (0, {})
    assert 0 < version < 12 and kept["shape"] == SHAPE.version
    with store.transaction() as tx:
        full = repo.get(tx, "long", PLAIN)
        reads: list[int] = []
        original = store.read

        def counted(stream: str, from_version: int = 1, *args: Any, **kw: Any) -> list[RecordedEvent]:
            reads.append(from_version)
            return original(stream, from_version, *args, **kw)

        monkeypatch.setattr(store, "read", counted)
        from_snapshot = repo.get(tx, "long", SNAPSHOTTED)
    assert reads == [version + 1]  # only the tail was read
    assert from_snapshot == full and full.state.seen == tuple(range(1, 13))


def test_a_snapshot_of_another_state_shape_is_ignored(store: MemoryEventStore) -> None:
    repo = Repository(store)
    for n in range(3):
        count(repo, "old", n)
    store.save_snapshot("old", 3, {"shape": 1, "state": {"total": 999, "seen": []}})
    with store.transaction() as tx:
        assert repo.get(tx, "old", SNAPSHOTTED).state == Tally(3, (0, 1, 2))


def test_the_cache_drops_a_state_whose_append_rolled_back(store: MemoryEventStore) -> None:
    repo = Repository(store)
    cached = Fold(Tally, evolve, cache=StreamCache())
    count(repo, "k", 1, cached)

    def rolled_back(uow: UnitOfWork) -> None:
        loaded = repo.get(uow, "k", cached)
        uow.append("k", loaded.version, [Counted(100)])
        repo.get(uow, "k", cached)  # the cache now holds a state with the 100
        raise RuntimeError("roll back")

    with pytest.raises(RuntimeError):
        repo.execute(rolled_back)
    count(repo, "k", 2, cached)  # another event takes version 2
    with store.transaction() as tx:
        assert repo.get(tx, "k", cached).state == Tally(3, (1, 2))


def test_a_state_decided_in_a_callers_transaction_is_checked_once_then_known_committed(
    store: MemoryEventStore,
) -> None:
    repo, fold = Repository(store), Fold(Tally, evolve, cache=StreamCache())
    with store.transaction() as outer:  # e.g. a consumer's inbox transaction: it may still roll back

        def command(uow: UnitOfWork) -> None:
            uow.record("c", repo.get(uow, "c", fold), [Counted(4)], fold)

        repo.execute(command, conn=outer)
    assert repo.peek("c", fold) is None  # not trusted without a read
    with store.transaction() as reading:
        assert repo.get(reading, "c", fold).state == Tally(4, (4,))
    assert repo.peek("c", fold) is not None and repo.peek("c", fold).state == Tally(4, (4,))  # type: ignore[union-attr]
