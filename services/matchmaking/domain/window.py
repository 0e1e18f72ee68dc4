"""The ranked rating window and the abandonment rule: pure functions of waited time."""

from __future__ import annotations

import math
from datetime import datetime

WINDOW_START = 50  # ± rating points at 0 s waited
WINDOW_GROWTH_PER_SECOND = 25  # + this per second waited
WINDOW_UNLIMITED_AFTER = 60.0  # from this many seconds waited: any rating
ABANDON_SECONDS = 30.0  # a waiting ticket not polled for this long is cancelled
PAIRING_GAP_SECONDS = 10.0  # passes run every second: a longer gap is an outage of the pairing


def window(waited_seconds: float) -> float:
    """The largest rating gap a ticket accepts after waiting ``waited_seconds``:
    ±50, widening by 25 per second, unlimited (``math.inf``) from 60 s."""
    if waited_seconds >= WINDOW_UNLIMITED_AFTER:
        return math.inf
    return WINDOW_START + WINDOW_GROWTH_PER_SECOND * max(0.0, waited_seconds)


def is_abandoned(last_polled_seconds_ago: float) -> bool:
    """A waiting ticket whose player has not polled it for 30 s is abandoned."""
    return last_polled_seconds_ago >= ABANDON_SECONDS


def resumed_at(last_pass: datetime | None, resumed: datetime | None, now: datetime) -> datetime | None:
    """When the pairing last came back from an outage, as a pass at ``now`` sees it: ``now`` when
    the previous pass (``last_pass``) ran over ``PAIRING_GAP_SECONDS`` ago, else the previous
    answer (``resumed``). The first pass ever has no outage behind it."""
    if last_pass is not None and (now - last_pass).total_seconds() > PAIRING_GAP_SECONDS:
        return now
    return resumed


def silent_since(last_polled: datetime, resumed: datetime | None) -> datetime:
    """Since when a waiting ticket's silence counts: its last poll, or the pairing's return from an
    outage if later (while matchmaking was down its players could not have been answered, so a
    restart never cancels the queue as abandoned)."""
    return max(last_polled, resumed) if resumed is not None else last_polled
