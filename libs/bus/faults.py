"""Fault injection for tests: make a process die at an exact point, for real.

Set ``ARCANA_FAULT`` in a process's environment to one of the points below; when the code reaches
that point the process sends itself SIGKILL (no cleanup, no ``finally``, no flush), exactly like an
OOM kill or a node failure. Unset (always, outside tests) it does nothing.

Points:
- ``kill_after_publish`` — in the outbox relay, after a batch has been published and flushed to
  Kafka and before its progress is recorded in PostgreSQL (so the restarted relay publishes the
  batch again: duplicates that consumers must ignore).
"""

from __future__ import annotations

import os
import signal

from libs import config

ENV = config.FAULT.name
KILL_AFTER_PUBLISH = "kill_after_publish"


def maybe_die(point: str) -> None:
    """SIGKILL this process when ``ARCANA_FAULT`` names ``point``."""
    if config.FAULT.get() == point:
        os.kill(os.getpid(), signal.SIGKILL)
