"""Waking long-polls when a match gets new events, in any process.

Every append NOTIFYs ``<schema>_match_events`` with ``<match id>:<version>`` (on commit). One
listener thread per process (started on first use, so after gunicorn forks) LISTENs and wakes the
requests waiting on that match. Waiters also wake every ``FALLBACK_SECONDS`` to look at the
database themselves, so a lost notification (or a listener reconnecting) only delays an answer.
"""

from __future__ import annotations

import logging
import threading
import time

import psycopg
from psycopg import sql

log = logging.getLogger(__name__)

FALLBACK_SECONDS = 1.0


class MatchNotifier:
    def __init__(self, url: str, channel: str) -> None:
        self.url = url
        self.channel = channel
        self._cond = threading.Condition()
        self._seen: dict[str, int] = {}  # match id -> highest version announced
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def _ensure_started(self) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="match-notify", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
                    while True:
                        for note in conn.notifies(timeout=5.0):
                            self._announce(note.payload)
            except Exception:
                log.warning("match notifications: listener failed; reconnecting", exc_info=True)
                time.sleep(1.0)

    def _announce(self, payload: str) -> None:
        match_id, _, version = payload.rpartition(":")
        try:
            v = int(version)
        except ValueError:
            return
        with self._cond:
            if v > self._seen.get(match_id, 0):
                self._seen[match_id] = v
                if len(self._seen) > 10_000:
                    self._seen.pop(next(iter(self._seen)))
            self._cond.notify_all()

    def wait(self, match_id: str, after: int, seconds: float) -> None:
        """Block until ``match_id`` is announced past version ``after`` or ``seconds`` (capped at the
        fallback interval) pass; the caller then reads the database."""
        self._ensure_started()
        end = time.monotonic() + min(seconds, FALLBACK_SECONDS)
        with self._cond:
            while self._seen.get(match_id, 0) <= after:
                left = end - time.monotonic()
                if left <= 0:
                    return
                self._cond.wait(left)
