"""Long polls: a player's events after a version, waiting (woken by LISTEN/NOTIFY, else polling) up to
a given time for one, while their requests keep counting as presence."""

from __future__ import annotations

import time
from dataclasses import dataclass

from libs.eventstore import RecordedEvent
from services.match import domain
from services.match.domain import Match
from services.match.limits import LongPollSlots
from services.match.loading import MatchLoader, as_rows
from services.match.notify import MatchNotifier
from services.match.presence import Presence
from services.match.system import SystemCommands

# A waiting request records presence this often (a player is marked disconnected after 20 s without
# a request). Between these, a waiter with a listening notifier costs no database work at all.
TOUCH_EVERY_SECONDS = 10.0


@dataclass(frozen=True)
class Polled:
    """What a poll found: the events after the asked version, and the match at the last of them
    (so the answer can say whom the match waits for and what the caller may do, without another
    request)."""

    events: list[RecordedEvent]
    match: Match

    @property
    def version(self) -> int:
        return self.events[-1].version if self.events else max(self.match.version, 0)


class EventWaiter:
    def __init__(
        self,
        loader: MatchLoader,
        system: SystemCommands,
        presence: Presence,
        notifier: MatchNotifier | None,
        slots: LongPollSlots | None = None,
    ) -> None:
        self.loader = loader
        self.slots = slots
        self.system = system
        self.presence = presence
        self.notifier = notifier

    def wait_for_events(self, match_id: str, player: str, after: int, wait: float) -> Polled:
        """Events after version ``after`` (waiting up to ``wait`` seconds for one), with the match as
        they leave it. Raises ``MatchNotFound`` unless ``player`` plays in the match, and
        ``TooManyRequests`` when ``player`` holds every long-poll slot (``wait`` > 0) of this
        process."""
        if wait <= 0 or self.slots is None:
            return self._wait(match_id, player, after, wait)
        with self.slots.hold(player, wait):
            return self._wait(match_id, player, after, wait)

    def _wait(self, match_id: str, player: str, after: int, wait: float) -> Polled:
        """The poll itself (see ``wait_for_events``), once admitted."""
        m = self.system.touch(match_id, player)
        end = time.monotonic() + wait
        touched = time.monotonic()
        look = m.version > after  # the touch read the match as stored now: is anything newer?
        recorded: list[RecordedEvent] = []
        while True:
            if look:
                recorded = self.loader.read_events(match_id, after)
            left = end - time.monotonic()
            if recorded or left <= 0 or m.ended:
                break
            # Wake at the latest when presence is due again (a waiting player stays connected).
            nap = max(0.0, min(left, touched + TOUCH_EVERY_SECONDS - time.monotonic()))
            if self.notifier is not None:
                look = self.notifier.wait(match_id, after, nap)
            else:  # no notifier: poll the database
                time.sleep(min(nap, 0.2))
                look = True
            if time.monotonic() - touched >= TOUCH_EVERY_SECONDS:
                # Presence only: what the match does meanwhile reaches the waiter as a notification
                # (or a read, when the listener is down), so it needs no load here.
                self._record_presence(match_id, player)
                touched = time.monotonic()
        if wait > 1.0 and not m.ended and not any(e.type == "MatchEnded" for e in recorded):
            self._record_presence(match_id, player)
        return Polled(recorded, self._advanced(m, recorded))

    def _record_presence(self, match_id: str, player: str) -> None:
        with self.loader.reading() as conn:
            self.presence.record(conn, match_id, player, relaxed=True)

    def _advanced(self, m: Match, recorded: list[RecordedEvent]) -> Match:
        """``m`` after the events of ``recorded`` it has not seen. They were read after ``m`` was
        loaded, so they reach at least its version and follow it without a gap."""
        tail = [e for e in recorded if e.version > m.version]
        if not tail:
            return m
        advanced = domain.fold_match(as_rows(tail), m)
        self.loader.cache.remember(advanced)
        return advanced
