"""The ranked rating window and the abandonment rule: pure functions of waited time."""

from __future__ import annotations

import math

WINDOW_START = 50  # ± rating points at 0 s waited
WINDOW_GROWTH_PER_SECOND = 25  # + this per second waited
WINDOW_UNLIMITED_AFTER = 60.0  # from this many seconds waited: any rating
ABANDON_SECONDS = 30.0  # a waiting ticket not polled for this long is cancelled


def window(waited_seconds: float) -> float:
    """The largest rating gap a ticket accepts after waiting ``waited_seconds``:
    ±50, widening by 25 per second, unlimited (``math.inf``) from 60 s."""
    if waited_seconds >= WINDOW_UNLIMITED_AFTER:
        return math.inf
    return WINDOW_START + WINDOW_GROWTH_PER_SECOND * max(0.0, waited_seconds)


def is_abandoned(last_polled_seconds_ago: float) -> bool:
    """A waiting ticket whose player has not polled it for 30 s is abandoned."""
    return last_polled_seconds_ago >= ABANDON_SECONDS
