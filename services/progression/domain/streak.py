"""The login streak of one player: the fold of ``streak-<player>``.

The first log-in of a UTC day is that day's visit. A 7-day cycle pays 30 / 40 / 50 / 60 / 75 / 100
coins on days 1..6 and one pack on day 7, then starts again at day 1. One missed day between two
visits is forgiven when a forgiveness is available: the cycle goes on. A player holds one at the
start; a spent one becomes available again 7 days after the day it was spent (the day of the visit
that used it), and never more than one is held. Two or more missed days, or one without a
forgiveness available, start the cycle again at day 1.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from services.progression.events import Event, RewardGranted, StreakDayKept, streak_reward_id

CYCLE_COINS: Final = (30, 40, 50, 60, 75, 100)  # days 1..6; day 7 pays a pack
CYCLE_DAYS: Final = 7
FORGIVENESS_COOLDOWN_DAYS: Final = 7


def streak_stream(player: str) -> str:
    return f"streak-{player}"


def cycle_reward(streak_day: int) -> tuple[int, int]:
    """(coins, packs) of a day of the cycle."""
    return (0, 1) if streak_day == CYCLE_DAYS else (CYCLE_COINS[streak_day - 1], 0)


@dataclass
class Streak:
    player_id: str
    last_day: dt.date | None = None
    streak_day: int = 0
    forgiveness_from: dt.date | None = None  # None: a forgiveness is held
    version: int = 0

    def forgiveness_available(self, day: dt.date) -> bool:
        return self.forgiveness_from is None or day >= self.forgiveness_from

    def continues_on(self, day: dt.date) -> tuple[bool, bool]:
        """(the cycle goes on, a forgiveness is spent) for a visit on ``day``."""
        if self.last_day is None:
            return False, False
        gap = (day - self.last_day).days
        if gap == 1:
            return True, False
        if gap == 2 and self.forgiveness_available(day):
            return True, True
        return False, False

    def kept_on(self, day: dt.date) -> bool:
        return self.last_day == day


def evolve(state: Streak, event: Event) -> Streak:
    if isinstance(event, StreakDayKept):
        state.last_day = dt.date.fromisoformat(event.day)
        state.streak_day = event.streak_day
        held_from = event.forgiveness_from
        state.forgiveness_from = dt.date.fromisoformat(held_from) if held_from else None
    state.version += 1
    return state


def fold(player: str, events: Iterable[Event]) -> Streak:
    state = Streak(player)
    for event in events:
        evolve(state, event)
    return state


def visit(state: Streak, day: dt.date) -> list[Event]:
    """The events of a log-in on ``day``: the day kept and its reward, or nothing when the day is
    kept already (or is older than the last kept day: a late, out-of-order log-in)."""
    if state.last_day is not None and day <= state.last_day:
        return []
    goes_on, forgiven = state.continues_on(day)
    streak_day = state.streak_day % CYCLE_DAYS + 1 if goes_on else 1
    held_from = state.forgiveness_from
    if forgiven:
        held_from = day + dt.timedelta(days=FORGIVENESS_COOLDOWN_DAYS)
    elif held_from is not None and day >= held_from:
        held_from = None  # available again: held, never more than one
    coins, packs = cycle_reward(streak_day)
    iso = day.isoformat()
    kept = StreakDayKept(
        state.player_id, iso, streak_day, forgiven, held_from.isoformat() if held_from else None, coins, packs
    )
    reward = RewardGranted(
        streak_reward_id(state.player_id, iso),
        state.player_id,
        coins,
        packs,
        "streak",
        {"streak_day": streak_day, "day": iso},
    )
    return [kept, reward]


def shown_day(state: Streak, today: dt.date) -> int:
    """The cycle day shown today: the last kept one while the streak can still go on, else 0."""
    if state.last_day is None:
        return 0
    if state.last_day == today or state.continues_on(today)[0]:
        return state.streak_day
    return 0
