"""Waking long-polls when a match gets new events, in any process.

Every append NOTIFYs ``<schema>_match_events`` with ``<match id>:<version>`` (on commit). One
listener thread per process (started on first use, so after gunicorn forks) LISTENs and wakes the
requests waiting on that match, and only those: each match with waiters has a condition of its
own, so an append wakes its match's one or two waiters, not every waiting request of the process
(with a thousand waiting long-polls, waking all of them on every append would cost more CPU than
the command).

PostgreSQL does not lose a notification while the listening connection is up, so while it is up a
waiter sleeps until its match is announced or its time is over, and never polls the database.
While the listener is down (not yet connected, or reconnecting), waiters wake every
``FALLBACK_SECONDS`` to look at the database themselves; when it connects again, every waiter is
woken once to look, since notifications sent meanwhile are lost.
"""

from __future__ import annotations

import logging
import threading
import time
import weakref

import psycopg
from psycopg import sql

log = logging.getLogger(__name__)

FALLBACK_SECONDS = 1.0
REMEMBERED = 10_000  # matches whose last announced version is kept for waiters that arrive late
STOP_CHECK_SECONDS = 1.0  # how soon a closed listener notices

_notifiers: weakref.WeakSet[MatchNotifier] = weakref.WeakSet()


def close_all() -> None:
    """Stop every listener of this process and wait for them: before its database goes away (the
    end of a test session), so no listener tries to reconnect to a server that is gone."""
    for notifier in list(_notifiers):
        notifier.close()


class _Slot:
    """The waiters of one match: their condition (on the notifier's lock) and how many there are."""

    __slots__ = ("announced", "cond", "waiters")

    def __init__(self, lock: threading.Lock, announced: int) -> None:
        self.cond = threading.Condition(lock)
        self.waiters = 0
        self.announced = announced  # the highest version announced while someone waits


class MatchNotifier:
    def __init__(self, url: str, channel: str) -> None:
        self.url = url
        self.channel = channel
        self._lock = threading.Lock()
        self._seen: dict[str, int] = {}  # match id -> highest version announced
        self._slots: dict[str, _Slot] = {}  # match id -> its waiters (only while there are some)
        self._listening = False  # the listener's connection is up and LISTENs
        self._generation = 0  # bumped whenever the listener connects or drops: waiters look again
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._stop = threading.Event()
        _notifiers.add(self)

    def _ensure_started(self) -> None:
        with self._start_lock:
            if self._thread is None or not self._thread.is_alive():
                self._stop.clear()  # a wait after close() listens again
                self._thread = threading.Thread(target=self._run, name="match-notify", daemon=True)
                self._thread.start()

    def close(self, timeout: float = 5.0) -> None:
        """Stop listening (waiters fall back to reading the database) and wait for the thread."""
        with self._start_lock:
            self._stop.set()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
                    self._set_listening(True)
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=STOP_CHECK_SECONDS):
                            self.announce(note.payload)
            except Exception:
                if self._stop.is_set():
                    break
                log.warning("match notifications: listener failed; reconnecting", exc_info=True)
                self._set_listening(False)
                self._stop.wait(1.0)
        self._set_listening(False)

    def _set_listening(self, up: bool) -> None:
        """The listener connected (``up``) or dropped: every waiter looks at the database once."""
        with self._lock:
            self._listening = up
            self._generation += 1
            for slot in self._slots.values():
                slot.cond.notify_all()

    def announce(self, payload: str) -> None:
        """A notification ``<match id>:<version>``: wake that match's waiters."""
        match_id, _, version = payload.rpartition(":")
        try:
            v = int(version)
        except ValueError:
            return
        with self._lock:
            if v <= self._seen.get(match_id, 0):
                return
            self._seen.pop(match_id, None)  # re-inserted last: the oldest announcements go first
            self._seen[match_id] = v
            if len(self._seen) > REMEMBERED:
                self._seen.pop(next(iter(self._seen)))
            slot = self._slots.get(match_id)
            if slot is not None:
                slot.announced = max(slot.announced, v)
                slot.cond.notify_all()

    def wait(self, match_id: str, after: int, seconds: float, until: threading.Event | None = None) -> bool:
        """Block until ``match_id`` is announced past version ``after``, ``seconds`` pass, or ``until``
        is set (and ``wake`` called: a stream whose client left; False then).

        Returns whether the caller should read the database: True when the match was announced,
        when the listener connected or dropped meanwhile, or when it is not listening (the wait is
        then capped at ``FALLBACK_SECONDS``); False when the time passed with nothing announced
        while the listener was up (nothing new can be stored)."""
        self._ensure_started()
        now = time.monotonic()
        with self._lock:
            if self._seen.get(match_id, 0) > after:
                return True
            listening = self._listening
            end = now + (seconds if listening else min(seconds, FALLBACK_SECONDS))
            generation = self._generation
            slot = self._slots.get(match_id)
            if slot is None:
                slot = self._slots[match_id] = _Slot(self._lock, self._seen.get(match_id, 0))
            slot.waiters += 1
            try:
                while True:
                    if slot.announced > after or self._generation != generation:
                        return True
                    if until is not None and until.is_set():
                        return False
                    left = end - time.monotonic()
                    if left <= 0:
                        return not listening
                    slot.cond.wait(left)
            finally:
                slot.waiters -= 1
                if slot.waiters == 0:
                    del self._slots[match_id]

    def wake(self, match_id: str) -> None:
        """Wake the waiters of ``match_id`` to look at their ``until`` again."""
        with self._lock:
            slot = self._slots.get(match_id)
            if slot is not None:
                slot.cond.notify_all()

    def waiting(self) -> int:
        """How many requests wait now (for tests and diagnostics)."""
        with self._lock:
            return sum(slot.waiters for slot in self._slots.values())
