"""SQL of the accounts service (tables in ``migrations/``); every function takes a connection."""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg import sql

from libs.contracts import default_display_name
from libs.kit.limits import count_in_window
from services.accounts.domain import DisplayNameTaken, UnknownPlayer, UsernameTaken

Conn = psycopg.Connection[Any]


@dataclass(frozen=True)
class PlayerRow:
    player_id: uuid.UUID
    username: str
    password_hash: str
    created_at: datetime
    display_name: str


def _t(schema: str, table: str) -> sql.Identifier:
    return sql.Identifier(schema, table)


def insert_player(
    conn: Conn, schema: str, player_id: uuid.UUID, username: str, password_hash: str, created_at: datetime
) -> None:
    """Insert the account row. Raises ``UsernameTaken`` (the caller's transaction is then failed:
    let the exception leave its ``with conn.transaction()`` block)."""
    query = sql.SQL(
        "INSERT INTO {} (player_id, username, password_hash, created_at, display_name) "
        "VALUES (%s, %s, %s, %s, %s)"
    ).format(_t(schema, "players"))
    try:
        conn.execute(
            query, (player_id, username, password_hash, created_at, default_display_name(str(player_id)))
        )
    except pg_errors.UniqueViolation as exc:
        if exc.diag.constraint_name == "players_username_key":
            raise UsernameTaken(username) from None
        raise


# A NULL display name (a row the previous release inserted) reads as the default one.
_COLUMNS = sql.SQL(
    "player_id, username, password_hash, created_at, "
    "coalesce(display_name, 'Player-' || substr(replace(player_id::text, '-', ''), 1, 12))"
)


def find_by_username(conn: Conn, schema: str, username: str) -> PlayerRow | None:
    query = sql.SQL("SELECT {} FROM {} WHERE lower(username) = lower(%s)").format(
        _COLUMNS, _t(schema, "players")
    )
    row = conn.execute(query, (username,)).fetchone()
    return PlayerRow(*row) if row else None


def get_player(conn: Conn, schema: str, player_id: uuid.UUID) -> PlayerRow | None:
    query = sql.SQL("SELECT {} FROM {} WHERE player_id = %s").format(_COLUMNS, _t(schema, "players"))
    row = conn.execute(query, (player_id,)).fetchone()
    return PlayerRow(*row) if row else None


def count_attempt(
    conn: Conn, schema: str, scope: str, subject: str, window_seconds: int, now: datetime
) -> tuple[int, int]:
    """Count one attempt in the current fixed window (starting a new one when it has passed).

    ``now`` comes from ``libs.clock`` (tests move it). Returns (attempts in the window including
    this one, seconds until the window ends).
    """
    return count_in_window(conn, schema, "login_attempts", (scope, subject), window_seconds, now)


def pair_subject(username_key: str, client_address: str) -> str:
    """The subject of a (username, address) delay row: a space never occurs in either part."""
    return f"{username_key} {client_address}"


def key_subject(client_address: str, idempotency_key: str) -> str:
    """The subject of a (address, Idempotency-Key) row: the key hashed (bounded length)."""
    return f"{client_address} {hashlib.sha256(idempotency_key.encode()).hexdigest()}"


def admitted_before(conn: Conn, schema: str, subject: str) -> bool:
    """Whether a request of ``subject`` (an address and Idempotency-Key) was admitted already.
    Takes a transaction lock on the subject first: concurrent retries of one key wait for the
    first one's count, then find it admitted."""
    conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", ("register_key " + subject,))
    query = sql.SQL("SELECT 1 FROM {} WHERE scope = 'register_key' AND subject = %s").format(
        _t(schema, "login_attempts")
    )
    return conn.execute(query, (subject,)).fetchone() is not None


def admit(conn: Conn, schema: str, subject: str, now: datetime) -> None:
    """Record that the request of ``subject`` was admitted (purged with the registration window)."""
    query = sql.SQL(
        "INSERT INTO {} (scope, subject, window_start, attempts) VALUES ('register_key', %s, %s, 1) "
        "ON CONFLICT (scope, subject) DO NOTHING"
    ).format(_t(schema, "login_attempts"))
    conn.execute(query, (subject, now))


def seconds_blocked(conn: Conn, schema: str, subject: str, now: datetime) -> int:
    """Whole seconds (rounded up) until the delay of ``subject`` (scope 'pair') ends; 0 if none."""
    query = sql.SQL(
        """
        SELECT ceil(extract(epoch FROM blocked_until - %(now)s))::int FROM {}
        WHERE scope = 'pair' AND subject = %(subject)s AND blocked_until > %(now)s
        """
    ).format(_t(schema, "login_attempts"))
    row = conn.execute(query, {"subject": subject, "now": now}).fetchone()
    return max(1, int(row[0])) if row else 0


def block_until(conn: Conn, schema: str, subject: str, now: datetime, until: datetime) -> None:
    """Make ``subject`` (scope 'pair') wait until ``until`` before its next attempt."""
    query = sql.SQL(
        """
        INSERT INTO {} AS a (scope, subject, window_start, attempts, blocked_until)
        VALUES ('pair', %(subject)s, %(now)s, 1, %(until)s)
        ON CONFLICT (scope, subject) DO UPDATE
            SET attempts = a.attempts + 1, window_start = %(now)s, blocked_until = %(until)s
        """
    ).format(_t(schema, "login_attempts"))
    conn.execute(query, {"subject": subject, "now": now, "until": until})


def forgive_attempts(conn: Conn, schema: str, username_key: str, client_address: str) -> None:
    """After a successful log-in: clear this address's delay for the username and take one off the
    address's counter. The username's failure count stays: the owner logging in must not hand a
    guesser on other addresses a fresh allowance."""
    t = _t(schema, "login_attempts")
    conn.execute(
        sql.SQL("DELETE FROM {} WHERE scope IN ('pair', 'pair_fail') AND subject = %s").format(t),
        (pair_subject(username_key, client_address),),
    )
    conn.execute(
        sql.SQL(
            "UPDATE {} SET attempts = greatest(attempts - 1, 0) WHERE scope = 'ip' AND subject = %s"
        ).format(t),
        (client_address,),
    )


def mark_logged_in(conn: Conn, schema: str, subject: str, now: datetime) -> None:
    """Remember that the (username, address) ``subject`` logged in successfully ``now`` (scope
    'known': its ``window_start`` is the last success)."""
    query = sql.SQL(
        """
        INSERT INTO {} AS a (scope, subject, window_start, attempts) VALUES ('known', %(subject)s, %(now)s, 1)
        ON CONFLICT (scope, subject) DO UPDATE SET window_start = %(now)s, attempts = a.attempts + 1
        """
    ).format(_t(schema, "login_attempts"))
    conn.execute(query, {"subject": subject, "now": now})


def logged_in_since(conn: Conn, schema: str, subject: str, now: datetime, seconds: int) -> bool:
    """Whether ``subject`` (username and address) logged in successfully in the last ``seconds``."""
    query = sql.SQL(
        """
        SELECT 1 FROM {} WHERE scope = 'known' AND subject = %(subject)s
          AND window_start > %(now)s - make_interval(secs => %(secs)s)
        """
    ).format(_t(schema, "login_attempts"))
    return conn.execute(query, {"subject": subject, "now": now, "secs": seconds}).fetchone() is not None


def purge_login_attempts(conn: Conn, schema: str, now: datetime, windows: dict[str, int]) -> int:
    """Delete the counters whose window (``windows[scope]`` seconds; the longest one for a scope not
    listed) ended and whose delay, if any, is over; returns how many."""
    query = sql.SQL(
        """
        DELETE FROM {} WHERE window_start <= %(now)s - make_interval(secs => coalesce(
                (%(windows)s::jsonb ->> scope)::int, %(longest)s))
          AND (blocked_until IS NULL OR blocked_until <= %(now)s)
        """
    ).format(_t(schema, "login_attempts"))
    params = {"now": now, "windows": json.dumps(windows), "longest": max(windows.values())}
    return conn.execute(query, params).rowcount


def set_display_name(conn: Conn, schema: str, player_id: uuid.UUID, display_name: str) -> None:
    """Raises ``DisplayNameTaken`` (another player's, case-insensitively); the caller's
    transaction is then failed, as with ``insert_player``."""
    query = sql.SQL("UPDATE {} SET display_name = %s WHERE player_id = %s").format(_t(schema, "players"))
    try:
        conn.execute(query, (display_name, player_id))
    except pg_errors.UniqueViolation as exc:
        if exc.diag.constraint_name == "players_display_name_key":
            raise DisplayNameTaken(display_name) from None
        raise


def lock_player(conn: Conn, schema: str, player_id: uuid.UUID) -> int:
    """Lock the player's row for this transaction (log-ins of one player append to its stream one
    after the other) and return its token version. Raises ``UnknownPlayer`` (deleted)."""
    query = sql.SQL("SELECT token_version FROM {} WHERE player_id = %s FOR UPDATE").format(
        _t(schema, "players")
    )
    row = conn.execute(query, (player_id,)).fetchone()
    if row is None:  # deleted meanwhile
        raise UnknownPlayer()
    return int(row[0])


def revoke_token(conn: Conn, schema: str, player_id: uuid.UUID, token_id: str, expires_at: datetime) -> None:
    """Record a logged-out token until it would have expired (revoking twice is harmless)."""
    conn.execute(
        sql.SQL(
            "INSERT INTO {} (token_id, player_id, expires_at) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING"
        ).format(_t(schema, "revoked_tokens")),
        (token_id, player_id, expires_at),
    )


def raise_token_version(conn: Conn, schema: str, player_id: uuid.UUID) -> int:
    """Make every token issued so far invalid; returns the new version."""
    row = conn.execute(
        sql.SQL(
            "UPDATE {} SET token_version = token_version + 1 WHERE player_id = %s RETURNING token_version"
        ).format(_t(schema, "players")),
        (player_id,),
    ).fetchone()
    assert row is not None, player_id
    return int(row[0])


def purge_revoked_tokens(conn: Conn, schema: str, now: datetime) -> int:
    """Forget revoked tokens that have expired anyway; returns how many."""
    return conn.execute(
        sql.SQL("DELETE FROM {} WHERE expires_at < %s").format(_t(schema, "revoked_tokens")), (now,)
    ).rowcount


# -- erasure (docs/security.md, account deletion) ------------------------------------------------


def erase_player(conn: Conn, schema: str, row: PlayerRow, pseudonym: str, now: datetime) -> None:
    """Erase the person of ``row``, leaving the tombstone ``deleted_players``: the account row
    (username, password hash, display name), its revoked tokens, every log-in counter naming the
    username (with the addresses it was used from), the stored responses of its requests (the
    registration's names the username), and the personal values of its own stored events: a
    version 1 event's username, a chosen display name (read as the pseudonym from now on)."""
    params = {"player": row.player_id, "username": row.username, "pseudonym": pseudonym, "now": now}
    for statement in _ERASURES:
        conn.execute(sql.SQL(statement).format(schema=sql.Identifier(schema)), params)


_ERASURES = (
    "INSERT INTO {schema}.deleted_players (player_id, pseudonym, deleted_at) "
    "VALUES (%(player)s, %(pseudonym)s, %(now)s)",
    "DELETE FROM {schema}.players WHERE player_id = %(player)s",
    "DELETE FROM {schema}.revoked_tokens WHERE player_id = %(player)s",
    # scope 'username': the username; 'pair', 'pair_fail', 'known': '<username> <address>'
    "DELETE FROM {schema}.login_attempts WHERE (scope = 'username' AND subject = %(username)s) "
    "OR (scope IN ('pair', 'pair_fail', 'known') "
    "AND left(subject, length(%(username)s) + 1) = %(username)s || ' ')",
    "DELETE FROM {schema}.idempotency WHERE scope = %(player)s::text "
    "OR position(convert_to(%(player)s::text, 'UTF8') IN coalesce(body, ''::bytea)) > 0",
    "UPDATE {schema}.events SET data = data - 'username' "
    "WHERE stream = 'player-' || %(player)s::text AND data ? 'username'",
    "UPDATE {schema}.events SET data = jsonb_set(data, '{{display_name}}', to_jsonb(%(pseudonym)s::text)) "
    "WHERE stream = 'player-' || %(player)s::text AND type = 'DisplayNameChanged'",
)
