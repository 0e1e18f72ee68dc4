"""The arena's tables (``domain.form_tables``): a table of 4 at once, of 3 once the oldest waited
10 s, of 2 once it waited 20 s; oldest first; sizes respected; no ticket twice; deterministic."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from services.matchmaking import domain as d

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
ARENA_SIZES = (2, 3, 4)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def w(tid: str, t: float = 0, sizes: tuple[int, ...] = (2, 3, 4), player: str | None = None) -> d.Waiting:
    return d.Waiting(tid, player or f"p{tid}", "casual", 0, at(t), None, "arena", sizes)


def seated(tables: list[d.Table]) -> list[list[str]]:
    return [[x.ticket_id for x in table.tickets] for table in tables]


def test_the_arena_waits_0_10_and_20_seconds_before_tables_of_4_3_and_2() -> None:
    assert [d.wait_seconds(size, ARENA_SIZES) for size in (4, 3, 2)] == [0.0, 10.0, 20.0]
    assert (
        d.wait_seconds(4, (2, 3, 4, 5, 6)) == 20.0
    )  # a game of larger tables: 10 s a size below its largest


def test_four_tickets_accepting_4_sit_at_once() -> None:
    waiting = [w("a"), w("b", sizes=(4,)), w("c", sizes=(3, 4)), w("d")]
    assert seated(d.form_tables(waiting, at(0))) == [["a", "b", "c", "d"]]


def test_three_wait_10_s_for_a_fourth_then_sit_as_three() -> None:
    waiting = [w("a", t=0), w("b", t=2), w("c", t=5)]
    assert d.form_tables(waiting, at(9.9)) == []
    assert seated(d.form_tables(waiting, at(10))) == [["a", "b", "c"]]


def test_two_wait_20_s_then_sit_as_two() -> None:
    waiting = [w("a", t=0), w("b", t=15)]
    assert d.form_tables(waiting, at(19.9)) == []
    assert seated(d.form_tables(waiting, at(20))) == [["a", "b"]]


def test_a_ticket_sits_only_at_a_size_it_accepts() -> None:
    waiting = [w("a", sizes=(4,)), w("b", sizes=(2,)), w("c", sizes=(3,))]
    assert d.form_tables(waiting, at(600)) == []  # no size has enough takers, however long they wait
    waiting = [w("a", sizes=(2,)), w("b", sizes=(3, 4)), w("c", sizes=(3, 4)), w("d", sizes=(3,))]
    assert seated(d.form_tables(waiting, at(10))) == [["b", "c", "d"]]  # a waits for another 2-taker
    assert seated(d.form_tables([*waiting, w("e", t=1, sizes=(2, 3))], at(20))) == [
        ["a", "e"],
        ["b", "c", "d"],
    ]


def test_the_oldest_is_served_first() -> None:
    # five accept 4: the four oldest sit, the youngest waits
    waiting = [w(f"t{i}", t=i) for i in range(5)]
    assert seated(d.form_tables(waiting, at(5))) == [["t0", "t1", "t2", "t3"]]
    # the oldest takes the largest table it may have now, with the oldest who accept it
    waiting = [w("old", t=0, sizes=(2, 3)), w("x", t=1, sizes=(3,)), w("y", t=2), w("z", t=3, sizes=(3,))]
    assert seated(d.form_tables(waiting, at(11))) == [["old", "x", "y"]]


def test_a_larger_table_fills_while_the_wait_is_short() -> None:
    waiting = [w("a", t=0), w("b", t=1), w("c", t=2)]
    assert d.form_tables(waiting, at(5)) == []  # 3 wait for a fourth
    assert seated(d.form_tables([*waiting, w("d", t=5)], at(5))) == [["a", "b", "c", "d"]]


def test_never_a_player_twice_nor_another_game() -> None:
    waiting = [w("a", player="p"), w("b", player="p"), w("c"), w("d")]
    assert d.form_tables(waiting, at(5)) == []
    assert seated(d.form_tables(waiting, at(10))) == [["a", "c", "d"]]
    other = d.Waiting("e", "pe", "casual", 0, at(0), None, "arcana", (2,))
    assert [t.tickets for t in d.form_tables([w("x"), other], at(60))] == []


tickets = st.lists(
    st.tuples(
        st.floats(min_value=0, max_value=60, allow_nan=False),
        st.sets(st.sampled_from((2, 3, 4)), min_size=1).map(lambda s: tuple(sorted(s))),
        st.integers(min_value=0, max_value=30),  # player: some play twice (the store forbids it)
    ),
    max_size=40,
)


def _queue(drawn: list[tuple[float, tuple[int, ...], int]]) -> list[d.Waiting]:
    return [w(f"t{i:02d}", t=t, sizes=sizes, player=f"p{p}") for i, (t, sizes, p) in enumerate(drawn)]


@settings(max_examples=300, deadline=None)
@given(tickets, st.floats(min_value=0, max_value=90, allow_nan=False))
def test_tables_respect_every_rule(drawn: list[tuple[float, tuple[int, ...], int]], now_s: float) -> None:
    queue = [x for x in _queue(drawn) if x.opened_at <= at(now_s)]
    now = at(now_s)
    tables = d.form_tables(queue, now)
    ids = [x.ticket_id for t in tables for x in t.tickets]
    assert len(ids) == len(set(ids)), "no ticket at two tables"
    left = [x for x in queue if x.ticket_id not in set(ids)]
    for table in tables:
        size = len(table.tickets)
        assert all(size in x.sizes for x in table.tickets), "sizes respected"
        assert len({x.player_id for x in table.tickets}) == size, "never a player twice"
        assert table.tickets[0].waited(now) >= d.wait_seconds(size, ARENA_SIZES), "the oldest waited enough"
        assert list(table.tickets) == sorted(table.tickets, key=lambda x: (x.opened_at, x.ticket_id))
        players = {x.player_id for x in table.tickets}
        youngest = max(x.opened_at for x in table.tickets)
        skipped = [x for x in left if size in x.sizes and x.player_id not in players]
        assert all(x.opened_at >= youngest for x in skipped), "oldest served first"
    for size in (2, 3, 4):  # nothing that may sit now is left waiting
        takers = sorted((x for x in left if size in x.sizes), key=lambda x: x.opened_at)
        if len({x.player_id for x in takers}) >= size:
            assert takers[0].waited(now) < d.wait_seconds(size, ARENA_SIZES)


@settings(max_examples=100, deadline=None)
@given(tickets, st.floats(min_value=0, max_value=90, allow_nan=False), st.randoms(use_true_random=False))
def test_tables_are_a_function_of_the_queue_not_its_order(
    drawn: list[tuple[float, tuple[int, ...], int]], now_s: float, rng: random.Random
) -> None:
    queue = _queue(drawn)
    shuffled = list(queue)
    rng.shuffle(shuffled)
    assert d.form_tables(shuffled, at(now_s)) == d.form_tables(queue, at(now_s))
