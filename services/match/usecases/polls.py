"""Reads of a player: the match as they see it, their legal commands, their matches, and long polls
(their events after a version, waiting, woken by LISTEN/NOTIFY, else polling, up to a given time
for one). Every read of a match counts as the player's presence (``SystemCommands.touch``)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from libs.eventstore import RecordedEvent
from services.match import domain, store
from services.match.domain import Match
from services.match.notify import MatchNotifier
from services.match.presence import Presence
from services.match.repository import MatchRepository
from services.match.usecases.limits import LongPollSlots
from services.match.usecases.replies import next_move, visible_events
from services.match.usecases.system import SystemCommands

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


class PlayerReads:
    def __init__(
        self,
        matches: MatchRepository,
        system: SystemCommands,
        presence: Presence,
        notifier: MatchNotifier | None,
        slots: LongPollSlots | None = None,
    ) -> None:
        self.matches = matches
        self.slots = slots
        self.system = system
        self.presence = presence
        self.notifier = notifier

    def view(self, match_id: str, player: str) -> dict[str, Any]:
        """The match as ``player`` sees it, with its version (``domain.player_view``). Raises
        ``MatchNotFound`` unless they play in it."""
        return domain.player_view(self.system.touch(match_id, player), player)

    def legal(self, match_id: str, player: str) -> dict[str, Any]:
        """Every command ``player`` may post now (empty when it is not their move)."""
        m = self.system.touch(match_id, player)
        return {
            "version": m.version,
            "commands": domain.player_commands(m, player),
            "awaiting": domain.awaiting(m),
        }

    def events(self, match_id: str, player: str, after: int, wait: float) -> dict[str, Any]:
        """``wait_for_events`` answered as the API answers it: the version, the events as ``player``
        sees them, whom the match now waits for and their legal commands when that is them."""
        polled = self.wait_for_events(match_id, player, after, wait)
        return {
            "version": polled.version,
            "events": visible_events(polled.events, polled.match, player),
            **next_move(polled.match, player),
        }

    def matches_of(self, player: str, active_only: bool) -> list[dict[str, Any]]:
        """The player's matches, newest first (at most 50)."""
        with self.matches.reading() as conn:
            rows = store.matches_of(conn, self.matches.schema, player, active_only)
        for row in rows:
            for key in ("deadline", "created_at"):
                row[key] = row[key].isoformat() if row[key] else None
        return rows

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
                recorded = self.matches.read_events(match_id, after, m.game)
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
                self.record_presence(match_id, player)
                touched = time.monotonic()
        if wait > 1.0 and not m.ended and not any(e.type == "MatchEnded" for e in recorded):
            self.record_presence(match_id, player)
        return Polled(recorded, self.matches.advanced(m, recorded))

    def record_presence(self, match_id: str, player: str) -> None:
        with self.matches.reading() as conn:
            self.presence.record(conn, match_id, player, relaxed=True)
