"""Revoked tokens, looked up cheaply: the :class:`~libs.web.auth.SessionCheck` of every service.

Accounts reads its own tables (``players.token_version`` and ``revoked_tokens``, see
``services/accounts/migrations/002_throttling_and_sessions.sql``): :class:`RevocationCache`. Every
other service reads the shared tables ``token_revocations`` and ``token_versions`` of its schema
(``libs/web/migrations/002_token_revocations.sql``), which the kit's subscription to accounts'
``SessionRevoked`` / ``AllSessionsRevoked`` fills (``libs/kit/sessions.py``):
:meth:`RevocationCache.shared`, installed by ``libs.kit.web`` for every service. There a
revocation applies once the event is consumed, and within ``ttl_seconds`` after that.

A token is revoked when its id was logged out or its ``ver`` is below the player's token version
(log out everywhere). Each process caches a player's state for ``ttl_seconds``
(``ARCANA_REVOCATION_CACHE_SECONDS``, default 10): one indexed query per active player per 10 s.
So a revocation applies at once in the process that served it (it calls :meth:`forget`) and
within ``ttl_seconds`` in every other process. Expiry follows ``libs.clock``, so tests move it.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from psycopg import sql
from psycopg_pool import ConnectionPool

from libs import clock, config
from libs.web.auth import TokenClaims

DEFAULT_TTL_SECONDS = config.REVOCATION_CACHE_SECONDS.get()
_MAX_ENTRIES = 50_000


@dataclass(frozen=True)
class _PlayerSessions:
    token_version: int
    revoked: frozenset[str]
    fetched_at: float


class RevocationCache:
    """``is_revoked(claims)`` from ``<schema>.players`` and ``<schema>.revoked_tokens`` (accounts),
    or from the shared tables (:meth:`shared`), cached."""

    def __init__(
        self,
        pool: Callable[[], ConnectionPool],
        schema: str,
        ttl_seconds: float = DEFAULT_TTL_SECONDS,
        *,
        query: sql.Composed | None = None,
    ) -> None:
        """``pool`` returns the pool when first needed (an app is built before gunicorn forks).
        ``query`` (one parameter, ``%(p)s``: the player id) answers one row (token version, revoked token
        ids) or none for an unknown player; default: accounts' tables."""
        self.pool = pool
        self.ttl_seconds = ttl_seconds
        self._entries: dict[uuid.UUID, _PlayerSessions] = {}
        self._lock = threading.Lock()
        self._query = query or sql.SQL(
            "SELECT p.token_version, ARRAY(SELECT r.token_id FROM {revoked} r "
            "WHERE r.player_id = p.player_id) FROM {players} p WHERE p.player_id = %(p)s"
        ).format(revoked=sql.Identifier(schema, "revoked_tokens"), players=sql.Identifier(schema, "players"))

    @classmethod
    def shared(
        cls, pool: Callable[[], ConnectionPool], schema: str, ttl_seconds: float = DEFAULT_TTL_SECONDS
    ) -> RevocationCache:
        """The cache of a service other than accounts: ``<schema>.token_versions`` and
        ``<schema>.token_revocations``, as the kit's subscription recorded them."""
        query = sql.SQL(
            "SELECT COALESCE((SELECT v.min_version FROM {versions} v WHERE v.player_id = %(p)s), 1), "
            "ARRAY(SELECT r.token_id FROM {revoked} r WHERE r.player_id = %(p)s)"
        ).format(
            versions=sql.Identifier(schema, "token_versions"),
            revoked=sql.Identifier(schema, "token_revocations"),
        )
        return cls(pool, schema, ttl_seconds, query=query)

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
            row = conn.execute(self._query, {"p": player_id}).fetchone()
        if row is None:
            return None
        state = _PlayerSessions(int(row[0]), frozenset(row[1] or ()), now)
        with self._lock:
            if len(self._entries) >= _MAX_ENTRIES:
                self._entries.clear()
            self._entries[player_id] = state
        return state


# -- the shared tables (every service but accounts) ----------------------------------------------


def record_revoked_token(
    conn: psycopg.Connection[Any], schema: str, player_id: uuid.UUID, token_id: str, expires_at: datetime
) -> None:
    """Token ``token_id`` of ``player_id`` was logged out (idempotent)."""
    conn.execute(
        sql.SQL(
            "INSERT INTO {} (token_id, player_id, expires_at) VALUES (%s, %s, %s) "
            "ON CONFLICT (token_id) DO NOTHING"
        ).format(sql.Identifier(schema, "token_revocations")),
        (token_id, player_id, expires_at),
    )


def record_token_version(
    conn: psycopg.Connection[Any], schema: str, player_id: uuid.UUID, version: int
) -> None:
    """Tokens of ``player_id`` below ``version`` are refused from now on (idempotent; a version
    never goes down, whatever order the events come in)."""
    conn.execute(
        sql.SQL(
            "INSERT INTO {t} AS v (player_id, min_version) VALUES (%s, %s) ON CONFLICT (player_id) "
            "DO UPDATE SET min_version = GREATEST(v.min_version, EXCLUDED.min_version), updated_at = now()"
        ).format(t=sql.Identifier(schema, "token_versions")),
        (player_id, version),
    )


def purge_revoked_tokens(pool: ConnectionPool, schema: str, now: datetime) -> int:
    """Delete the shared revocations of tokens expired by ``now`` (they are refused anyway);
    returns how many. Token versions stay (one row per player who logged out everywhere)."""
    with pool.connection() as conn:
        cur = conn.execute(
            sql.SQL("DELETE FROM {} WHERE expires_at < %s").format(
                sql.Identifier(schema, "token_revocations")
            ),
            (now,),
        )
        return cur.rowcount
