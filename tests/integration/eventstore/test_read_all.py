"""Following the global order: a reader never passes an event that commits later."""

from __future__ import annotations

import threading

import psycopg

from libs.eventstore import EventStore, Expect, NewEvent


def test_read_all_pages_in_position_order(store: EventStore) -> None:
    for i in range(30):
        store.append(f"s{i % 3}", Expect.ANY, [NewEvent("Counted", {"i": i})])
    page1 = store.read_all(0, 10)
    page2 = store.read_all(page1[-1].position, 100)
    assert [e.data["i"] for e in page1 + page2] == list(range(30))
    assert [e.data["i"] for e in store.iter_all(0, batch=7)] == list(range(30))


def test_open_writer_is_never_passed_and_everything_arrives_in_order(store: EventStore, pool) -> None:
    store.append("before", Expect.NO_STREAM, [NewEvent("Early", {})])
    seen_head = store.read_all(0)[-1].position

    holder = pool.getconn()
    try:
        with holder.transaction():
            slow = store.append("slow", Expect.NO_STREAM, [NewEvent("Slow", {})], conn=holder)
            # Later appends commit while the slow writer's transaction is still open ...
            later = [
                store.append(f"later-{i}", Expect.NO_STREAM, [NewEvent("Later", {"i": i})])[0]
                for i in range(3)
            ]
            assert all(e.position > slow[0].position for e in later)
            # ... yet a follower never passes the open one: it sees nothing new at all.
            assert store.read_all(seen_head) == []
    finally:
        pool.putconn(holder)

    after = store.read_all(seen_head)
    assert [e.type for e in after] == ["Slow", "Later", "Later", "Later"]
    assert [e.position for e in after] == sorted(e.position for e in after)


def test_open_writer_in_the_middle_holds_back_only_what_follows_it(store: EventStore, pool) -> None:
    first = store.append("a", Expect.NO_STREAM, [NewEvent("A", {})])[0]
    holder = pool.getconn()
    try:
        with holder.transaction():
            store.append("b", Expect.NO_STREAM, [NewEvent("B", {})], conn=holder)
            store.append("c", Expect.NO_STREAM, [NewEvent("C", {})])
            assert [e.type for e in store.read_all(0)] == ["A"]
            assert store.read_all(first.position) == []
            raise psycopg.Rollback()
    finally:
        pool.putconn(holder)
    # The rolled-back append leaves a gap, and the follower moves on past it.
    assert [e.type for e in store.read_all(first.position)] == ["C"]


def test_concurrent_follower_sees_every_event_once_in_increasing_order(store: EventStore) -> None:
    stop = threading.Event()
    observed: list[int] = []

    def follow() -> None:
        position = 0
        while not stop.is_set() or len(observed) < 400:
            for e in store.read_all(position, 50):
                observed.append(e.position)
                position = e.position

    def write(w: int) -> None:
        for i in range(50):
            store.append(f"f{w}", Expect.ANY, [NewEvent("Tick", {"i": i})])

    follower = threading.Thread(target=follow)
    follower.start()
    writers = [threading.Thread(target=write, args=(w,)) for w in range(8)]
    for t in writers:
        t.start()
    for t in writers:
        t.join()
    stop.set()
    follower.join(30)
    assert len(observed) == 400
    assert observed == sorted(set(observed))
    assert observed == [e.position for e in store.read_all(0, 1000)]
