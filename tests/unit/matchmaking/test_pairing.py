"""The pairing pass: ranked by rating within the widening window, casual first come first served,
never a player with themselves, no ranked rematch until both waited 60 s."""

from __future__ import annotations

import random
import statistics
from datetime import UTC, datetime, timedelta

from services.matchmaking import domain as d

T0 = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def w(
    tid: str,
    rating: int,
    t: float = 0,
    mode: str = "ranked",
    player: str | None = None,
    last: str | None = None,
) -> d.Waiting:
    return d.Waiting(tid, player or f"p{tid}", mode, rating, at(t), last)


def ids(pairs: list[d.Pair]) -> set[frozenset[str]]:
    return {frozenset((p.first.ticket_id, p.second.ticket_id)) for p in pairs}


def test_ranked_pairs_nearest_ratings_within_the_window() -> None:
    waiting = [w("a", 900), w("b", 1000), w("c", 940), w("d", 1030)]
    assert ids(d.pair_ranked(waiting, at(0))) == {frozenset("ac"), frozenset("bd")}


def test_a_gap_beyond_the_window_waits_until_it_widens() -> None:
    waiting = [w("a", 900), w("b", 1200)]
    assert d.pair_ranked(waiting, at(0)) == []
    assert d.pair_ranked(waiting, at(9)) == []  # window 275
    assert ids(d.pair_ranked(waiting, at(10))) == {frozenset("ab")}  # window 300


def test_the_longer_wait_widens_the_window_for_a_newcomer() -> None:
    waiting = [w("old", 900, t=0), w("new", 2500, t=59)]  # gap 1600 > 1537.5 at 59.5 s
    assert d.pair_ranked(waiting, at(59.5)) == []
    assert ids(d.pair_ranked(waiting, at(60))) == {frozenset(("old", "new"))}


def test_the_longest_waiting_ticket_chooses_first() -> None:
    waiting = [w("old", 1000, t=0), w("x", 1040, t=5), w("y", 1070, t=5)]
    pairs = d.pair_ranked(waiting, at(5))
    assert ids(pairs) == {frozenset(("old", "x"))}


def test_never_a_player_with_themselves() -> None:
    waiting = [w("a", 900, player="p"), w("b", 900, player="p")]
    assert d.pair_ranked(waiting, at(120)) == []
    assert d.pair_casual([w("a", 0, mode="casual", player="p"), w("b", 0, mode="casual", player="p")]) == []


def test_no_immediate_ranked_rematch_while_others_wait() -> None:
    waiting = [w("a", 900, player="A", last="B"), w("b", 900, player="B", last="A"), w("c", 920, player="C")]
    (pair,) = d.pair_ranked(waiting, at(0))
    assert "C" in {pair.first.player_id, pair.second.player_id}
    # only one side remembers the last opponent: still refused
    waiting = [w("a", 900, player="A", last="B"), w("b", 900, player="B"), w("c", 2000, player="C")]
    assert d.pair_ranked(waiting, at(0)) == []
    # the two of them alone (issue 17, finding 1: this was a feeder): not before both waited 60 s
    assert d.pair_ranked(waiting[:2], at(0)) == []
    assert d.pair_ranked(waiting[:2], at(59.9)) == []
    assert len(d.pair_ranked(waiting[:2], at(60))) == 1
    late = [w("a", 900, player="A", last="B"), w("b", 900, t=30, player="B")]
    assert d.pair_ranked(late, at(80)) == []  # one waited 80 s, the other 50 s
    assert len(d.pair_ranked(late, at(90))) == 1


def test_casual_is_first_come_first_served_whatever_the_rating() -> None:
    waiting = [
        w("c", 2000, t=2, mode="casual"),
        w("a", 900, t=0, mode="casual"),
        w("b", 1500, t=1, mode="casual"),
    ]
    (pair,) = d.pair_casual(waiting)
    assert (pair.first.ticket_id, pair.second.ticket_id) == ("a", "b")


def test_modes_never_mix() -> None:
    pairs = d.pairing_pass([w("a", 900), w("b", 900, mode="casual")], at(100))
    assert pairs == []


def test_200_players_queued_at_once_are_all_matched_within_the_schedule() -> None:
    rng = random.Random(7)
    waiting = [w(f"t{i}", int(rng.gauss(1100, 250)), t=rng.random()) for i in range(200)]
    seen: set[str] = set()
    gaps: list[int] = []
    queue = list(waiting)
    second = 0
    while queue:
        second += 1
        now = at(second)
        for pair in d.pairing_pass(queue, now):
            a, b = pair.first, pair.second
            assert a.player_id != b.player_id
            assert not {a.ticket_id, b.ticket_id} & seen, "nobody twice"
            seen |= {a.ticket_id, b.ticket_id}
            assert pair.gap <= max(d.window(a.waited(now)), d.window(b.waited(now)))
            gaps.append(pair.gap)
        queue = [t for t in queue if t.ticket_id not in seen]
        assert second <= d.WINDOW_UNLIMITED_AFTER + 1, f"{len(queue)} still waiting past the schedule"
    assert len(seen) == 200
    print(
        f"\n200 players: all matched by {second} s, mean rating gap {statistics.mean(gaps):.1f}, "
        f"max {max(gaps)}"
    )
    assert statistics.mean(gaps) <= 50


def test_one_pass_over_many_tickets_pairs_each_at_most_once() -> None:
    rng = random.Random(3)
    waiting = [w(f"t{i}", rng.randint(0, 3000), t=rng.uniform(0, 30)) for i in range(2001)]
    pairs = d.pair_ranked(waiting, at(90))
    flat = [p.first.ticket_id for p in pairs] + [p.second.ticket_id for p in pairs]
    assert len(flat) == len(set(flat))
    assert len(pairs) == 1000  # all waited 60 s or more (unlimited): only the odd one out is left
