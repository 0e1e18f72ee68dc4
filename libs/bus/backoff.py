"""Bounded exponential backoff for reconnecting to a broker or a database that is down."""

from __future__ import annotations

import random
import threading


class Backoff:
    """Delays of ``initial * 2**n`` seconds, capped at ``maximum``, with +-20 % jitter.

    ``wait`` sleeps on ``stop`` so a stopping process never waits out a long delay.
    """

    def __init__(self, initial: float = 0.1, maximum: float = 5.0) -> None:
        self.initial = initial
        self.maximum = maximum
        self.failures = 0

    def next_delay(self) -> float:
        base = min(self.maximum, self.initial * (2 ** min(self.failures, 30)))
        self.failures += 1
        return base * random.uniform(0.8, 1.2)

    def reset(self) -> None:
        self.failures = 0

    def wait(self, stop: threading.Event) -> bool:
        """Sleep for the next delay unless ``stop`` is set first; True when stopping."""
        return stop.wait(self.next_delay())
