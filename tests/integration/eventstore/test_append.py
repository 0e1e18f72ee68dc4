"""Appending: optimistic concurrency, atomicity, expected-version rules (real PostgreSQL)."""

from __future__ import annotations

import threading
import uuid
from typing import Any

import psycopg
import pytest
from psycopg import sql
from psycopg_pool import ConnectionPool

from libs.eventstore import ConcurrencyError, DuplicateEventError, EventStore, Expect, NewEvent


def ev(n: int, kind: str = "Thing") -> NewEvent:
    return NewEvent(type=f"{kind}Happened", data={"n": n})


def versions(store: EventStore, stream: str) -> list[int]:
    return [e.version for e in store.read(stream)]


def test_append_returns_recorded_envelope(store: EventStore) -> None:
    corr = uuid.uuid4()
    first = NewEvent(type="CardPlayed", data={"card": "wolf"}, correlation_id=corr)
    recorded = store.append("match-1", Expect.NO_STREAM, [first, ev(2)])
    assert [(r.version, r.type) for r in recorded] == [(1, "CardPlayed"), (2, "ThingHappened")]
    assert recorded[0].event_id == first.event_id and recorded[0].correlation_id == corr
    assert recorded[1].position == recorded[0].position + 1
    read_back = store.read("match-1")
    assert read_back == recorded


def test_twenty_threads_same_expected_version_one_winner_per_version(store: EventStore) -> None:
    stream, rounds, threads = "race", 5, 20
    for expected in range(rounds):
        barrier = threading.Barrier(threads)
        outcomes: list[str] = []
        lock = threading.Lock()

        def attempt(
            i: int,
            expected: int = expected,
            barrier: threading.Barrier = barrier,
            outcomes: list[str] = outcomes,
            lock: threading.Lock = lock,
        ) -> None:
            barrier.wait()
            try:
                store.append(stream, expected, [ev(i)])
                result = "won"
            except ConcurrencyError as exc:
                assert exc.actual == expected + 1
                result = "lost"
            with lock:
                outcomes.append(result)

        workers = [threading.Thread(target=attempt, args=(i,)) for i in range(threads)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        assert outcomes.count("won") == 1, outcomes
        assert outcomes.count("lost") == threads - 1
    assert versions(store, stream) == list(range(1, rounds + 1))


def test_stale_or_future_expected_version_is_refused_and_writes_nothing(store: EventStore) -> None:
    store.append("s", Expect.NO_STREAM, [ev(1), ev(2)])
    for expected in (0, 1, 3, 7):
        with pytest.raises(ConcurrencyError) as info:
            store.append("s", expected, [ev(9)])
        assert info.value.actual == 2
    assert versions(store, "s") == [1, 2]


def test_must_be_new_and_must_exist(store: EventStore) -> None:
    with pytest.raises(ConcurrencyError):
        store.append("absent", Expect.STREAM_EXISTS, [ev(1)])
    store.append("absent", Expect.NO_STREAM, [ev(1)])
    with pytest.raises(ConcurrencyError):
        store.append("absent", Expect.NO_STREAM, [ev(2)])
    store.append("absent", Expect.STREAM_EXISTS, [ev(2)])
    store.append("absent", Expect.ANY, [ev(3)])
    assert versions(store, "absent") == [1, 2, 3]


def test_invalid_expected_version_is_a_programming_error(store: EventStore) -> None:
    with pytest.raises(ValueError):
        store.append("s", -5, [ev(1)])


def test_a_batch_is_all_or_nothing(store: EventStore) -> None:
    batch = [ev(1), ev(2), ev(3)]
    store.append("a", Expect.NO_STREAM, batch)
    # Re-appending an already stored event id inside a new batch: nothing of the batch is kept.
    with pytest.raises(DuplicateEventError):
        store.append("b", Expect.NO_STREAM, [ev(10), batch[1], ev(11)])
    assert store.read("b") == []
    assert [e.stream for e in store.read_all(0)] == ["a", "a", "a"]


def test_caller_transaction_rolls_back_events_with_its_own_writes(store: EventStore, pool) -> None:
    with pool.connection() as conn:
        conn.execute(sql.SQL("CREATE TABLE {} (x int)").format(sql.Identifier(store.schema, "side")))
    with pytest.raises(RuntimeError), pool.connection() as conn, conn.transaction():
        conn.execute(sql.SQL("INSERT INTO {} VALUES (1)").format(sql.Identifier(store.schema, "side")))
        store.append("tx", Expect.NO_STREAM, [ev(1)], conn=conn)
        raise RuntimeError("the caller fails after appending")
    assert store.read("tx") == []
    assert store.read_all(0) == []
    recorded = store.append("tx", Expect.NO_STREAM, [ev(1)])
    assert recorded[0].version == 1 and store.read_all(0) == recorded


def test_positions_are_unique_and_increasing_across_streams_under_concurrency(store: EventStore) -> None:
    def writer(w: int) -> None:
        for i in range(25):
            store.append(f"w-{w}", Expect.ANY, [ev(i), ev(i)])

    workers = [threading.Thread(target=writer, args=(w,)) for w in range(8)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    positions = [e.position for e in store.read_all(0, 10_000)]
    assert len(positions) == 8 * 25 * 2
    assert positions == sorted(set(positions))
    for w in range(8):
        assert versions(store, f"w-{w}") == list(range(1, 51))


def _pipelined(store: EventStore, build: Any) -> Any:
    """Run ``build(conn)`` in one pipelined transaction (BEGIN ... COMMIT, a single sync)."""
    with store.pool.connection() as conn:
        conn.autocommit = True
        try:
            with conn.pipeline():
                conn.execute("BEGIN")
                result = build(conn)
                conn.execute("COMMIT")
        except psycopg.Error:
            conn.execute("ROLLBACK")
            raise
        finally:
            conn.autocommit = False
    return result


def test_a_queued_append_commits_with_what_follows_it_in_one_round_trip(store: EventStore) -> None:
    store.append("q", Expect.NO_STREAM, [ev(1)])

    def build(conn: Any) -> Any:
        queued = store.append_queued(conn, "q", 1, [ev(2), ev(3)])
        assert [e.version for e in queued.predicted()] == [2, 3]  # known before any result
        return queued

    queued = _pipelined(store, build)
    recorded = queued.recorded()
    assert recorded == store.read("q", 2)  # positions as stored
    assert [e.version for e in recorded] == [2, 3] and recorded[1].position == recorded[0].position + 1


def test_a_refused_queued_append_fails_the_whole_transaction(store: EventStore) -> None:
    store.append("q2", Expect.NO_STREAM, [ev(1), ev(2)])
    table = sql.Identifier(store.schema, "events")

    def build(conn: Any) -> None:
        store.append_queued(conn, "q2", 1, [ev(3)])  # stale: the stream is at 2
        conn.execute(sql.SQL("DELETE FROM {}").format(table))  # must not happen either

    with pytest.raises(psycopg.Error) as raised:
        _pipelined(store, build)
    failure = store.append_failure(raised.value, "q2", 1)
    assert isinstance(failure, ConcurrencyError) and failure.actual == 2
    assert versions(store, "q2") == [1, 2]
    with store.pool.connection() as conn, pytest.raises(ValueError):
        store.append_queued(conn, "q2", 2, [])


def test_a_lost_race_is_a_concurrency_error_without_a_second_connection(
    store: EventStore, postgres_url: str
) -> None:
    """Two appends at the same version at once: the second one's insert waits for the first and then
    breaks the (stream, version) key. The loser holds its pool's only connection (a Celery child has
    two, the sweep holding one): its ConcurrencyError names the version taken without asking the
    pool for another (which waited the pool's timeout out, then raised PoolTimeout instead)."""
    tiny = ConnectionPool(postgres_url, min_size=1, max_size=1, timeout=2, open=True)
    loser = EventStore(tiny, store.schema)
    outcome: list[BaseException] = []
    try:
        with psycopg.connect(postgres_url) as first, tiny.connection() as second:
            first.execute("SELECT 1")  # a transaction open: the append below is not committed yet
            store.append("raced", Expect.NO_STREAM, [ev(1)], conn=first)

            def lose() -> None:
                try:
                    loser.append("raced", Expect.NO_STREAM, [ev(2)], conn=second, savepoint=False)
                except BaseException as exc:
                    outcome.append(exc)

            racer = threading.Thread(target=lose)
            racer.start()
            wait_until_blocked(racer, postgres_url, second.info.backend_pid)
            first.commit()
            racer.join(30)
    finally:
        tiny.close()
    (failure,) = outcome
    assert isinstance(failure, ConcurrencyError) and failure.actual == 1, repr(failure)
    assert versions(store, "raced") == [1]


def wait_until_blocked(racer: threading.Thread, url: str, pid: int) -> None:
    """Until the backend ``pid`` waits for a lock (the other insert's key), or ``racer`` is over."""
    with psycopg.connect(url, autocommit=True) as look:
        query = "SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s"
        while racer.is_alive() and (look.execute(query, (pid,)).fetchone() or [None])[0] != "Lock":
            pass
