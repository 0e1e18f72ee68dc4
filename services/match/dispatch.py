"""After a commit: ask the scheduler (Celery) to enforce the match's new deadline at its time, and to
move the bot when the match waits for it. Without a scheduler (tools, some tests) nothing is sent."""

from __future__ import annotations

from libs import clock
from services.match import domain
from services.match.domain import Match
from services.match.scheduling import Scheduler
from services.match.writing import Outcome


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
        if bot and after.bot is not None and after.bot in domain.awaiting(after):
            self.scheduler.bot(after.match_id)

    def follow_up(self, match_id: str, m: Match | None) -> None:
        """Schedule the deadline of ``m`` (the match as it is now) if it is still to come."""
        due = domain.deadline(m) if m is not None and not m.ended else None
        # one already past is the sweep's (a task now could only find the same and send again)
        if due is not None and due > clock.now() and self.scheduler is not None:
            self.scheduler.deadline(match_id, due)
