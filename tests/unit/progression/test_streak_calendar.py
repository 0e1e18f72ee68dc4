"""The login streak over a scripted 30-day calendar, against a table written by hand."""

from __future__ import annotations

import datetime as dt

from services.progression.domain import streak
from services.progression.events import Event, RewardGranted, StreakDayKept

START = dt.date(2026, 11, 1)

# (day of November, visited, expected cycle day, forgiveness spent, coins, packs)
# Forgiveness: held at the start; spent on the 5th -> available again on the 12th; spent on the
# 15th -> again on the 22nd; spent on the 23rd -> again on the 30th (used at once).
CALENDAR = [
    (1, True, 1, False, 30, 0),
    (2, True, 2, False, 40, 0),
    (3, True, 3, False, 50, 0),
    (4, False, None, False, 0, 0),
    (5, True, 4, True, 60, 0),  # one missed day, forgiveness held: goes on
    (6, True, 5, False, 75, 0),
    (7, False, None, False, 0, 0),
    (8, True, 1, False, 30, 0),  # one missed day, the next forgiveness only from the 12th: reset
    (9, True, 2, False, 40, 0),
    (10, True, 3, False, 50, 0),
    (11, True, 4, False, 60, 0),
    (12, True, 5, False, 75, 0),
    (13, True, 6, False, 100, 0),
    (14, False, None, False, 0, 0),
    (15, True, 7, True, 0, 1),  # forgiven (available since the 12th): day 7 is a pack
    (16, True, 1, False, 30, 0),  # after day 7 the cycle starts again
    (17, False, None, False, 0, 0),
    (18, False, None, False, 0, 0),
    (19, True, 1, False, 30, 0),  # two missed days: reset
    (20, True, 2, False, 40, 0),
    (21, True, 3, False, 50, 0),
    (22, False, None, False, 0, 0),
    (23, True, 4, True, 60, 0),  # available again since the 22nd
    (24, True, 5, False, 75, 0),
    (25, True, 6, False, 100, 0),
    (26, True, 7, False, 0, 1),
    (27, True, 1, False, 30, 0),
    (28, True, 2, False, 40, 0),
    (29, False, None, False, 0, 0),
    (30, True, 3, True, 50, 0),  # exactly 7 days after the 23rd: available
]
TOTAL_COINS = 1115
TOTAL_PACKS = 2


def _play(calendar: list[tuple]) -> tuple[list[Event], streak.Streak]:
    events: list[Event] = []
    state = streak.Streak("p1")
    for day_of_month, visited, *_ in calendar:
        if not visited:
            continue
        day = START.replace(day=day_of_month)
        for _twice in range(2):  # a second log-in the same day keeps nothing more
            new = streak.visit(state, day)
            for e in new:
                streak.evolve(state, e)
            events += new
    return events, state


def test_the_calendar_matches_the_table() -> None:
    events, _ = _play(CALENDAR)
    kept = {e.day: e for e in events if isinstance(e, StreakDayKept)}
    for day_of_month, visited, cycle_day, forgiven, coins, packs in CALENDAR:
        iso = START.replace(day=day_of_month).isoformat()
        if not visited:
            assert iso not in kept
            continue
        e = kept[iso]
        assert (e.streak_day, e.forgiven, e.coins, e.packs) == (cycle_day, forgiven, coins, packs), iso


def test_one_reward_per_visited_day_summing_to_the_table() -> None:
    events, _ = _play(CALENDAR)
    rewards = [e for e in events if isinstance(e, RewardGranted)]
    assert len({r.reward_id for r in rewards}) == len(rewards) == sum(1 for row in CALENDAR if row[1])
    assert sum(r.coins for r in rewards) == sum(row[4] for row in CALENDAR) == TOTAL_COINS
    assert sum(r.packs for r in rewards) == sum(row[5] for row in CALENDAR) == TOTAL_PACKS
    assert all(r.reward_id == f"streak:p1:{r.source['day']}" and r.reason == "streak" for r in rewards)


def test_replaying_the_events_gives_the_same_state() -> None:
    events, state = _play(CALENDAR)
    replayed = streak.fold("p1", events)
    assert replayed == state
    assert (state.streak_day, state.forgiveness_from) == (3, dt.date(2026, 12, 7))


def test_a_late_log_in_of_an_earlier_day_changes_nothing() -> None:
    _, state = _play(CALENDAR)
    assert streak.visit(state, dt.date(2026, 11, 29)) == []


def test_shown_day_follows_whether_the_streak_can_go_on() -> None:
    _, state = _play(CALENDAR)  # last kept 11-30, day 3, forgiveness from 12-07
    assert streak.shown_day(state, dt.date(2026, 11, 30)) == 3
    assert streak.shown_day(state, dt.date(2026, 12, 1)) == 3
    assert streak.shown_day(state, dt.date(2026, 12, 2)) == 0  # no forgiveness until 12-07
    assert streak.shown_day(streak.Streak("new"), dt.date(2026, 12, 2)) == 0
