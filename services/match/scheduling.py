"""What the service asks Celery to do after an append: enforce a deadline at its time, move the bot
(``Dispatcher``: after a commit, what the match now needs; ``CeleryScheduler``: the sending).

Both are hints: the beat sweep (``tasks.sweep``, every 2 s) finds any deadline already past and any
bot that should move, so a lost task (a dead worker, a broker restart) only delays things.

One deadline task per match is enough while it is due no later than the match's deadline: the
task, when it runs, applies what is due and schedules the match's deadline as it is then
(``SystemCommands.follow_up``). So a process does not send another while a task it sent for that
match is still to come and due no later: a fast match sends about one task per deadline period,
not one per turn.
"""

from __future__ import annotations

import logging
import threading
from datetime import UTC, datetime
from typing import Protocol

from libs import clock
from services.match import domain
from services.match.domain import Match
from services.match.repository import Outcome

log = logging.getLogger(__name__)

ENFORCE_TASK = "match.enforce_deadline"
BOT_TASK = "match.bot_turn"
SWEEP_TASK = "match.sweep"


class Scheduler(Protocol):
    def deadline(self, match_id: str, at: datetime) -> None: ...

    def bot(self, match_id: str) -> None: ...


class PendingDeadlines:
    """The deadline tasks this process sent that are still to come: match id → due time (service
    clock). Thread-safe; forgets the oldest entries beyond ``limit``."""

    def __init__(self, limit: int = 20_000) -> None:
        self.limit = limit
        self._due: dict[str, datetime] = {}
        self._lock = threading.Lock()

    def claim(self, match_id: str, at: datetime, now: datetime) -> bool:
        """True when a task must be sent for ``at``: none of ours is still to come by then."""
        with self._lock:
            pending = self._due.get(match_id)
            if pending is not None and now < pending <= at:
                return False
            self._due.pop(match_id, None)
            self._due[match_id] = at
            while len(self._due) > self.limit:
                self._due.pop(next(iter(self._due)))
            return True

    def release(self, match_id: str, at: datetime) -> None:
        """The task for ``at`` could not be sent."""
        with self._lock:
            if self._due.get(match_id) == at:
                del self._due[match_id]


class CeleryScheduler:
    """Sends the match tasks through ``libs.celeryapp.app``; a failure to send is logged, never raised
    (the command is already stored, and the sweep catches up)."""

    def __init__(self) -> None:
        self.pending = PendingDeadlines()

    def deadline(self, match_id: str, at: datetime) -> None:
        now = clock.now()
        if not self.pending.claim(match_id, at, now):
            return
        # The deadline is on the service clock (which tests may move); Celery's eta is on the system clock.
        if not self._send(ENFORCE_TASK, match_id, eta=datetime.now(UTC) + (at - now)):
            self.pending.release(match_id, at)

    def bot(self, match_id: str) -> None:
        self._send(BOT_TASK, match_id, expires=60)

    @staticmethod
    def _send(name: str, match_id: str, **options: object) -> bool:
        from libs.celeryapp import app

        try:
            app.send_task(name, args=[match_id], **options)
        except Exception:
            log.warning(
                "could not send %s for match %s; the sweep will catch up", name, match_id, exc_info=True
            )
            return False
        return True


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


class Dispatcher:
    def __init__(self, scheduler: Scheduler | None) -> None:
        self.scheduler = scheduler

    def dispatch(self, outcome: Outcome, *, bot: bool = True) -> None:
        """After the commit: schedule the new deadline, and the bot when the match waits for it."""
        if self.scheduler is None:
            return
        after, before = outcome.after, outcome.before
        due = domain.deadline(after)
        if due is not None and (before is None or domain.deadline(before) != due):
            self.scheduler.deadline(after.match_id, due)
        if bot and after.bot is not None and after.bots_awaited(domain.awaiting(after)):
            self.scheduler.bot(after.match_id)

    def follow_up(self, match_id: str, m: Match | None) -> None:
        """Schedule the deadline of ``m`` (the match as it is now) if it is still to come."""
        due = domain.deadline(m) if m is not None and not m.ended else None
        # one already past is the sweep's (a task now could only find the same and send again)
        if due is not None and due > clock.now() and self.scheduler is not None:
            self.scheduler.deadline(match_id, due)
