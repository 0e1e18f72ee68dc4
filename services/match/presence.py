"""Presence: each player request to a match is recorded (``match_presence.last_seen``), at most once per
``PRESENCE_WRITE_SECONDS`` per process (the 20 s rule tolerates that much), so reads rarely write."""

from __future__ import annotations

import threading
from datetime import datetime
from typing import Any

import psycopg

from libs import clock
from services.match import store

PRESENCE_WRITE_SECONDS = 1.0
REMEMBERED = 20_000  # (match, player) pairs whose last write is remembered; forgotten all at once beyond


class Presence:
    """Records player requests in the ``schema``'s presence table. Thread-safe."""

    def __init__(self, schema: str) -> None:
        self.schema = schema
        self._written: dict[tuple[str, str], datetime] = {}
        self._lock = threading.Lock()

    def record(
        self, conn: psycopg.Connection[Any], match_id: str, player: str, *, relaxed: bool = False
    ) -> None:
        """Record a request of ``player`` to the match, unless this process did within the last second.

        Not ``relaxed``: in the caller's transaction on ``conn``. ``relaxed``: committed at once
        without waiting for the disk (one statement on an autocommit ``conn``, else a transaction of
        its own)."""
        now = clock.now()
        if not self._due(match_id, player, now):
            return
        if not relaxed:
            store.touch(conn, self.schema, match_id, player, now)
            return
        if conn.autocommit:  # one statement, its own transaction, committed without the disk
            store.touch(conn, self.schema, match_id, player, now, relaxed=True)
            return
        with conn.transaction():  # only presence: no need to wait for the disk
            conn.execute("SET LOCAL synchronous_commit TO off")
            store.touch(conn, self.schema, match_id, player, now)

    def _due(self, match_id: str, player: str, now: datetime) -> bool:
        """Whether a write is due for the pair at ``now`` (it is then counted as written)."""
        key = (match_id, player)
        with self._lock:
            last = self._written.get(key)
            if last is not None and (now - last).total_seconds() < PRESENCE_WRITE_SECONDS:
                return False
            self._written[key] = now
            if len(self._written) > REMEMBERED:
                self._written.clear()
            return True
