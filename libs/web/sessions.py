"""Revoked tokens, looked up cheaply: the :class:`~libs.web.auth.SessionCheck` of the accounts
service (its tables ``players.token_version`` and ``revoked_tokens``, see
``services/accounts/migrations/002_throttling_and_sessions.sql``).

A token is revoked when its id was logged out or its ``ver`` is below the player's token version
(log out everywhere). Each process caches a player's state for ``ttl_seconds``
(``ARCANA_REVOCATION_CACHE_SECONDS``, default 10): one indexed query per active player per 10 s.
So a revocation applies at once in the process that served it (it calls :meth:`forget`) and
within ``ttl_seconds`` in every other process. Expiry follows ``libs.clock``, so tests move it.
"""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from psycopg import sql
from psycopg_pool import ConnectionPool

from libs import clock
from libs.web.auth import TokenClaims

DEFAULT_TTL_SECONDS = float(os.environ.get("ARCANA_REVOCATION_CACHE_SECONDS", "10"))
_MAX_ENTRIES = 50_000


@dataclass(frozen=True)
class _PlayerSessions:
    token_version: int
    revoked: frozenset[str]
    fetched_at: float


class RevocationCache:
    """``is_revoked(claims)`` from ``<schema>.players`` and ``<schema>.revoked_tokens``, cached."""

    def __init__(
        self, pool: Callable[[], ConnectionPool], schema: str, ttl_seconds: float = DEFAULT_TTL_SECONDS
    ) -> None:
        """``pool`` returns the pool when first needed (an app is built before gunicorn forks)."""
        self.pool = pool
        self.ttl_seconds = ttl_seconds
        self._entries: dict[uuid.UUID, _PlayerSessions] = {}
        self._lock = threading.Lock()
        self._query = sql.SQL(
            "SELECT p.token_version, ARRAY(SELECT r.token_id FROM {revoked} r "
            "WHERE r.player_id = p.player_id) FROM {players} p WHERE p.player_id = %s"
        ).format(revoked=sql.Identifier(schema, "revoked_tokens"), players=sql.Identifier(schema, "players"))

    def is_revoked(self, claims: TokenClaims) -> bool:
        state = self._state(claims.player_id)
        if state is None:  # no such player: nothing to revoke (views answer for unknown players)
            return False
        return claims.version < state.token_version or claims.token_id in state.revoked

    def forget(self, player_id: uuid.UUID) -> None:
        """Drop the cached state of ``player_id`` (after revoking one of its tokens here)."""
        with self._lock:
            self._entries.pop(player_id, None)

    def _state(self, player_id: uuid.UUID) -> _PlayerSessions | None:
        now = clock.now().timestamp()
        cached = self._entries.get(player_id)
        if cached is not None and now - cached.fetched_at < self.ttl_seconds:
            return cached
        with self.pool().connection() as conn:
            row = conn.execute(self._query, (player_id,)).fetchone()
        if row is None:
            return None
        state = _PlayerSessions(int(row[0]), frozenset(row[1] or ()), now)
        with self._lock:
            if len(self._entries) >= _MAX_ENTRIES:
                self._entries.clear()
            self._entries[player_id] = state
        return state
