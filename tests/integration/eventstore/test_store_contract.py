"""The contract of an event store behind ``Repository``: every test here runs on the PostgreSQL store
(the real database) and on the in-memory one (``MemoryEventStore``), which must behave alike:
versions gap-free and unique, the same conflict exception, all-or-nothing transactions and
savepoints, positions unique and increasing, a follower never passing an open writer, snapshots,
and the command path on top (retries, the decided state cached once committed, planned commands)."""

from __future__ import annotations

import threading
import uuid
from dataclasses import dataclass
from typing import Any

import pytest

from libs.eventstore import (
    ConcurrencyError,
    DuplicateEventError,
    Expect,
    Fold,
    Loaded,
    MemoryEventStore,
    NewEvent,
    RecordedEvent,
    Repository,
    Snapshots,
    Store,
    StreamCache,
    TooManyConflicts,
    UnitOfWork,
    Upcasters,
)
from tests.tally import Counted


@pytest.fixture(params=["postgres", "memory"])
def any_store(request: pytest.FixtureRequest) -> Store:
    """Each test once on each store (the PostgreSQL arm on the real database's ``store`` fixture)."""
    if request.param == "postgres":
        found: Store = request.getfixturevalue("store")
        return found
    return MemoryEventStore()


def ev(n: int, kind: str = "Thing") -> NewEvent:
    return NewEvent(f"{kind}Happened", {"n": n})


def versions(store: Store, stream: str) -> list[int]:
    return [e.version for e in store.read(stream)]


class Rollback(Exception):
    """Raised to leave a transaction block: everything in it is rolled back."""


# -- appending ---------------------------------------------------------------------------------------


def test_an_append_is_recorded_in_its_envelope_and_read_back_the_same(any_store: Store) -> None:
    corr = uuid.uuid4()
    first = NewEvent("CardPlayed", {"card": "wolf", "at": [1, 2]}, correlation_id=corr)
    recorded = any_store.append("s", Expect.NO_STREAM, [first, ev(2)])
    assert [(r.stream, r.version, r.type) for r in recorded] == [
        ("s", 1, "CardPlayed"),
        ("s", 2, "ThingHappened"),
    ]
    assert recorded[0].event_id == first.event_id and recorded[0].correlation_id == corr
    assert 0 < recorded[0].position < recorded[1].position
    assert any_store.read("s") == recorded
    assert any_store.version("s") == 2 and any_store.version("none") == 0
    assert [e.version for e in any_store.read("s", 2)] == [2] and any_store.read("s", 1, 1) == recorded[:1]


def test_a_stale_or_future_expected_version_is_refused_with_the_streams_version(any_store: Store) -> None:
    any_store.append("s", 0, [ev(1), ev(2)])
    for expected in (0, 1, 3):
        with pytest.raises(ConcurrencyError) as refused:
            any_store.append("s", expected, [ev(9)])
        assert refused.value.actual == 2 and refused.value.stream == "s"
    assert versions(any_store, "s") == [1, 2]


def test_new_exists_and_any(any_store: Store) -> None:
    with pytest.raises(ConcurrencyError):
        any_store.append("s", Expect.STREAM_EXISTS, [ev(1)])
    any_store.append("s", Expect.ANY, [ev(1)])
    any_store.append("s", Expect.STREAM_EXISTS, [ev(2)])
    with pytest.raises(ConcurrencyError):
        any_store.append("s", Expect.NO_STREAM, [ev(3)])
    assert versions(any_store, "s") == [1, 2]
    with pytest.raises(ValueError):
        any_store.append("s", -3, [ev(4)])


def test_an_event_id_is_stored_once_and_a_batch_is_all_or_nothing(any_store: Store) -> None:
    kept = ev(1)
    any_store.append("a", 0, [kept])
    again = NewEvent("ThingHappened", {"n": 2}, event_id=kept.event_id)
    with pytest.raises(DuplicateEventError):
        any_store.append("b", 0, [ev(1), again])
    assert any_store.read("b") == [] and versions(any_store, "a") == [1]


def test_one_winner_per_version_among_concurrent_appenders(any_store: Store) -> None:
    threads, outcomes = 12, []
    barrier, lock = threading.Barrier(threads), threading.Lock()

    def attempt(i: int) -> None:
        barrier.wait()
        try:
            any_store.append("race", 0, [ev(i)])
            won = True
        except ConcurrencyError as exc:
            assert exc.actual == 1
            won = False
        with lock:
            outcomes.append(won)

    workers = [threading.Thread(target=attempt, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert sorted(outcomes) == [False] * (threads - 1) + [True]
    assert versions(any_store, "race") == [1]


# -- transactions ------------------------------------------------------------------------------------


def test_a_transactions_appends_are_its_own_until_it_commits_and_gone_if_it_rolls_back(
    any_store: Store,
) -> None:
    with any_store.transaction() as tx:
        any_store.append("t", 0, [ev(1)], conn=tx)
        any_store.append("t", 1, [ev(2)], conn=tx)
        assert versions_in(any_store, "t", tx) == [1, 2]  # its own reads see them
        assert any_store.read("t") == []  # others' do not, yet
    assert versions(any_store, "t") == [1, 2]

    with pytest.raises(Rollback), any_store.transaction() as tx:
        any_store.append("t", 2, [ev(3)], conn=tx)
        any_store.save_snapshot("t", 3, {"n": 3}, conn=tx)
        raise Rollback
    assert versions(any_store, "t") == [1, 2] and any_store.load_snapshot("t") is None
    any_store.append("t", 2, [ev(3)])  # the version rolled back is free again


def versions_in(store: Store, stream: str, conn: Any) -> list[int]:
    return [e.version for e in store.read(stream, conn=conn)]


def test_a_refused_append_in_a_savepoint_leaves_the_transaction_going(any_store: Store) -> None:
    any_store.append("taken", 0, [ev(1)])
    with any_store.transaction() as tx:
        any_store.append("mine", 0, [ev(1)], conn=tx)
        with pytest.raises(ConcurrencyError), any_store.savepoint(tx):
            any_store.append("mine", 1, [ev(2)], conn=tx)
            any_store.append("taken", 0, [ev(2)], conn=tx)
        any_store.append("mine", 1, [ev(3)], conn=tx)
    assert [e.data["n"] for e in any_store.read("mine")] == [1, 3]
    assert versions(any_store, "taken") == [1]


# -- the global order ----------------------------------------------------------------------------------


def test_positions_are_unique_and_increasing_and_read_all_pages_in_their_order(any_store: Store) -> None:
    for i in range(30):
        any_store.append(f"s{i % 3}", Expect.ANY, [NewEvent("Counted", {"i": i})])
    page1 = any_store.read_all(0, 10)
    page2 = any_store.read_all(page1[-1].position, 100)
    assert [e.data["i"] for e in page1 + page2] == list(range(30))
    positions = [e.position for e in page1 + page2]
    assert positions == sorted(set(positions))
    assert any_store.head_position() == positions[-1]


def test_a_follower_never_passes_an_open_writer_and_moves_past_a_rolled_back_one(any_store: Store) -> None:
    first = any_store.append("a", 0, [NewEvent("A", {})])[0]
    with any_store.transaction() as slow:
        held = any_store.append("b", 0, [NewEvent("B", {})], conn=slow)[0]
        later = any_store.append("c", 0, [NewEvent("C", {})])[0]  # committed meanwhile
        assert later.position > held.position
        assert [e.type for e in any_store.read_all(0)] == ["A"]
        assert any_store.read_all(first.position) == []
    assert [e.type for e in any_store.read_all(first.position)] == ["B", "C"]

    with pytest.raises(Rollback), any_store.transaction() as gone:
        any_store.append("d", 0, [NewEvent("D", {})], conn=gone)
        any_store.append("e", 0, [NewEvent("E", {})])
        assert any_store.read_all(later.position) == []
        raise Rollback
    assert [e.type for e in any_store.read_all(later.position)] == ["E"]  # a gap, passed


def test_upcasters_apply_on_every_read(any_store: Store) -> None:
    upcasters = Upcasters()
    upcasters.register("Counted", 1)(lambda data: {**data, "n": data["n"] * 10})
    any_store.upcasters = upcasters
    any_store.append("u", 0, [NewEvent("Counted", {"n": 1}, schema_version=1)])
    assert [(e.data["n"], e.schema_version) for e in any_store.read("u")] == [(10, 2)]
    assert [e.data["n"] for e in any_store.read_all(0)] == [10]
    assert [e.data["n"] for e in any_store.read_many({"u": 1, "none": 1})["u"]] == [10]


# -- snapshots ---------------------------------------------------------------------------------------


def test_the_newest_snapshot_wins(any_store: Store) -> None:
    any_store.save_snapshot("s", 5, {"n": 5})
    any_store.save_snapshot("s", 3, {"n": 3})
    assert any_store.load_snapshot("s") == (5, {"n": 5})
    any_store.save_snapshot("s", 8, {"n": 8})
    assert any_store.load_snapshots(["s", "none"]) == {"s": (8, {"n": 8})}


# -- the command path ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tally:
    total: int = 0
    version: int = 0


def _evolve(state: Tally, event: RecordedEvent) -> Tally:
    return Tally(state.total + Counted.from_data(event.data).n, event.version)


SHAPE = Snapshots(1, lambda s: {"total": s.total, "version": s.version}, lambda d: Tally(**d), every=3)


def _fold(**extra: Any) -> Fold[Tally]:
    return Fold(Tally, _evolve, **extra)


def count(repo: Repository, stream: str, n: int, fold: Fold[Tally]) -> Tally:
    def command(uow: UnitOfWork) -> Tally:
        loaded = repo.get(uow, stream, fold)
        return uow.record(stream, loaded, [Counted(n)], fold).state

    return repo.execute(command)


def test_concurrent_commands_all_land_once_in_a_gap_free_stream(any_store: Store) -> None:
    repo, fold = Repository(any_store, attempts=50), _fold()
    threads, each = 6, 5
    barrier, errors = threading.Barrier(threads), []

    def writer(i: int) -> None:
        barrier.wait()
        try:
            for _ in range(each):
                count(repo, "tally", i + 1, fold)
        except BaseException as exc:  # reported below: a thread's failure must fail the test
            errors.append(exc)

    workers = [threading.Thread(target=writer, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert errors == []
    assert versions(any_store, "tally") == list(range(1, threads * each + 1))
    with any_store.transaction() as tx:
        assert repo.get(tx, "tally", fold).state.total == each * sum(range(1, threads + 1))


def test_a_conflict_is_retried_at_most_attempts_times_then_refused(any_store: Store) -> None:
    any_store.append("taken", 0, [ev(1)])
    repo, calls = Repository(any_store, attempts=3), []

    def always_stale(uow: UnitOfWork) -> None:
        calls.append(1)
        uow.append("taken", 0, [Counted(5)])

    with pytest.raises(TooManyConflicts) as refused:
        repo.execute(always_stale)
    assert len(calls) == 3 and refused.value.actual == 1
    assert versions(any_store, "taken") == [1]


def test_a_decided_state_is_cached_once_committed_and_snapshots_follow_the_cadence(any_store: Store) -> None:
    cache, seen = StreamCache(), []
    fold = _fold(cache=cache, snapshots=SHAPE, before_commit=lambda conn, s, state, rec: seen.append(state))
    repo = Repository(any_store)
    for n in (1, 2, 3, 4):
        count(repo, "t", n, fold)
    assert seen == [Tally(1, 1), Tally(3, 2), Tally(6, 3), Tally(10, 4)]
    assert repo.peek("t", fold) == Loaded(Tally(10, 4), 4)  # known committed: no read needed
    assert any_store.load_snapshot("t") == (3, {"shape": 1, "state": {"total": 6, "version": 3}})

    def rolled_back(uow: UnitOfWork) -> None:
        uow.record("t", repo.get(uow, "t", fold), [Counted(100)], fold)
        raise Rollback

    with pytest.raises(Rollback):
        repo.execute(rolled_back)
    assert repo.peek("t", fold) == Loaded(Tally(10, 4), 4) and versions(any_store, "t") == [1, 2, 3, 4]


def test_a_cold_read_starts_from_the_snapshot_and_many_streams_are_read_at_once(any_store: Store) -> None:
    writer = Repository(any_store)
    for n in range(1, 6):
        count(writer, "long", n, _fold(snapshots=SHAPE))
    count(writer, "short", 7, _fold(snapshots=SHAPE))
    cold, fold = Repository(any_store), _fold(snapshots=SHAPE, cache=StreamCache())
    with any_store.transaction() as tx:
        assert cold.get(tx, "long", fold) == Loaded(Tally(15, 5), 5)
        many = cold.get_many(tx, ["long", "short", "none"], fold)
    assert many == {
        "long": Loaded(Tally(15, 5), 5),
        "short": Loaded(Tally(7, 1), 1),
        "none": Loaded(Tally(), 0),
    }


def test_planned_commands_leave_out_those_whose_stream_moved(any_store: Store) -> None:
    any_store.append("moved", 0, [ev(1)])
    repo = Repository(any_store)

    def planned(stream: str, expected: int) -> Any:
        return lambda uow: uow.append(stream, expected, [Counted(1)], pipelined=True)

    with any_store.transaction() as tx:
        done = repo.execute_planned(tx, [planned("fresh", 0), planned("moved", 0), planned("other", 0)])
    assert done == [0, 2]
    assert versions(any_store, "fresh") == [1] and versions(any_store, "other") == [1]
    assert versions(any_store, "moved") == [1]
