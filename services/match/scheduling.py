"""What the service asks Celery to do after an append: enforce a deadline at its time, move the bot.

Both are hints: the beat sweep (``tasks.sweep``, every 2 s) finds any deadline already past and any
bot that should move, so a lost task (a dead worker, a broker restart) only delays things.
"""

from __future__ import annotations

import logging
import threading
from datetime import UTC, datetime
from typing import Protocol

from libs import clock

log = logging.getLogger(__name__)

ENFORCE_TASK = "match.enforce_deadline"
BOT_TASK = "match.bot_turn"
SWEEP_TASK = "match.sweep"


class Scheduler(Protocol):
    def deadline(self, match_id: str, at: datetime) -> None: ...

    def bot(self, match_id: str) -> None: ...


class CeleryScheduler:
    """Sends the match tasks through ``libs.celeryapp.app``; a failure to send is logged, never raised
    (the command is already stored, and the sweep catches up)."""

    def deadline(self, match_id: str, at: datetime) -> None:
        # The deadline is on the service clock (which tests may move); Celery's eta is on the system clock.
        eta = datetime.now(UTC) + (at - clock.now())
        self._send(ENFORCE_TASK, match_id, eta=eta)

    def bot(self, match_id: str) -> None:
        self._send(BOT_TASK, match_id, expires=60)

    @staticmethod
    def _send(name: str, match_id: str, **options: object) -> None:
        from libs.celeryapp import app

        try:
            app.send_task(name, args=[match_id], **options)
        except Exception:
            log.warning(
                "could not send %s for match %s; the sweep will catch up", name, match_id, exc_info=True
            )


class RecordingScheduler:
    """For tests: remembers what would have been sent."""

    def __init__(self) -> None:
        self.deadlines: list[tuple[str, datetime]] = []
        self.bots: list[str] = []
        self._lock = threading.Lock()

    def deadline(self, match_id: str, at: datetime) -> None:
        with self._lock:
            self.deadlines.append((match_id, at))

    def bot(self, match_id: str) -> None:
        with self._lock:
            self.bots.append(match_id)
