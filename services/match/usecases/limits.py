"""Limits per player (issue 12, finding 6): unfinished practice matches, the rate of practice
creation, and long-polls open at once in one process.

- a player has at most one unfinished practice match: a new one is refused (409
  ``practice_in_progress``, the running match's id in the details) until it is resumed to its end
  or conceded; checked under a per-player advisory lock in the creating transaction, so two
  requests at once cannot both pass;
- at most ``practice_per_window`` practice matches created per ``practice_window_seconds`` (429
  ``too_many_requests`` with ``Retry-After``: when the oldest of the window leaves it);
- at most ``long_polls_per_player`` long-polls (``wait`` > 0) open at once per player in one
  process (429 ``too_many_requests`` with ``Retry-After``: when the first open one ends at the
  latest).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import psycopg

from libs import clock, config
from services.match import store
from services.match.errors import PracticeInProgress, TooManyRequests


@dataclass(frozen=True)
class MatchLimits:
    """The per-player caps (settings: ``from_env``)."""

    practice_per_window: int = config.PRACTICE_MAX_PER_WINDOW.default
    practice_window_seconds: int = config.PRACTICE_WINDOW_SECONDS.default
    long_polls_per_player: int = config.LONG_POLLS_PER_PLAYER.default

    @classmethod
    def from_env(cls) -> MatchLimits:
        """``ARCANA_PRACTICE_MAX_PER_WINDOW``, ``ARCANA_PRACTICE_WINDOW_SECONDS``,
        ``ARCANA_LONG_POLLS_PER_PLAYER``; unset ones keep the defaults above."""
        return cls(
            practice_per_window=config.PRACTICE_MAX_PER_WINDOW.get(),
            practice_window_seconds=config.PRACTICE_WINDOW_SECONDS.get(),
            long_polls_per_player=config.LONG_POLLS_PER_PLAYER.get(),
        )


class LongPollSlots:
    """The long-polls open in this process, per player (thread-safe)."""

    def __init__(self, per_player: int) -> None:
        self.per_player = per_player
        self._lock = threading.Lock()
        self._open: dict[str, list[float]] = {}  # player -> monotonic end of each open poll

    def open_for(self, player: str) -> int:
        """How many long-polls ``player`` holds open now."""
        with self._lock:
            return len(self._open.get(player, ()))

    @contextmanager
    def hold(self, player: str, wait: float) -> Iterator[None]:
        """Hold one of ``player``'s slots for a poll of up to ``wait`` seconds; raises
        ``TooManyRequests`` when all are taken."""
        end = time.monotonic() + wait
        with self._lock:
            ends = self._open.setdefault(player, [])
            if len(ends) >= self.per_player:
                raise TooManyRequests(max(1, math.ceil(min(ends) - time.monotonic())))
            ends.append(end)
        try:
            yield
        finally:
            with self._lock:
                ends.remove(end)
                if not ends:
                    self._open.pop(player, None)


def admit_practice(conn: psycopg.Connection[Any], schema: str, player: str, limits: MatchLimits) -> None:
    """Check, in the transaction that will create it, that ``player`` may start a practice match:
    raises ``PracticeInProgress`` or ``TooManyRequests``. Holds the player's practice lock until
    that transaction ends, so a concurrent request sees the match this one creates."""
    store.lock_practice(conn, schema, player)
    running = store.unfinished_practice(conn, schema, player)
    if running is not None:
        raise PracticeInProgress(running)
    now = clock.now()
    window = timedelta(seconds=limits.practice_window_seconds)
    created = store.practice_created_since(conn, schema, player, now - window)
    if len(created) >= limits.practice_per_window:
        frees_at = created[len(created) - limits.practice_per_window] + window
        raise TooManyRequests(max(1, math.ceil((frees_at - now).total_seconds())))
