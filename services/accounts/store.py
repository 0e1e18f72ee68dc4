"""SQL of the accounts service (tables in ``migrations/``); every function takes a connection."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg import sql

from services.accounts.domain import UsernameTaken

Conn = psycopg.Connection[Any]


@dataclass(frozen=True)
class PlayerRow:
    player_id: uuid.UUID
    username: str
    password_hash: str
    created_at: datetime


def _t(schema: str, table: str) -> sql.Identifier:
    return sql.Identifier(schema, table)


def insert_player(
    conn: Conn, schema: str, player_id: uuid.UUID, username: str, password_hash: str, created_at: datetime
) -> None:
    """Insert the account row. Raises ``UsernameTaken`` (the caller's transaction is then failed:
    let the exception leave its ``with conn.transaction()`` block)."""
    query = sql.SQL(
        "INSERT INTO {} (player_id, username, password_hash, created_at) VALUES (%s, %s, %s, %s)"
    ).format(_t(schema, "players"))
    try:
        conn.execute(query, (player_id, username, password_hash, created_at))
    except pg_errors.UniqueViolation as exc:
        if exc.diag.constraint_name == "players_username_key":
            raise UsernameTaken(username) from None
        raise


_COLUMNS = sql.SQL("player_id, username, password_hash, created_at")


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


def count_attempt(conn: Conn, schema: str, scope: str, subject: str, window_seconds: int) -> tuple[int, int]:
    """Count one attempt in the current fixed window (starting a new one when it has passed).

    Returns (attempts in the window including this one, seconds until the window ends).
    """
    t = _t(schema, "login_attempts")
    query = sql.SQL(
        """
        INSERT INTO {t} AS a (scope, subject, window_start, attempts)
        VALUES (%(scope)s, %(subject)s, now(), 1)
        ON CONFLICT (scope, subject) DO UPDATE SET
            attempts = CASE WHEN a.window_start <= now() - make_interval(secs => %(window)s)
                            THEN 1 ELSE a.attempts + 1 END,
            window_start = CASE WHEN a.window_start <= now() - make_interval(secs => %(window)s)
                                THEN now() ELSE a.window_start END
        RETURNING attempts,
                  greatest(1, ceil(extract(epoch FROM
                      a.window_start + make_interval(secs => %(window)s) - now())))::int
        """
    ).format(t=t)
    row = conn.execute(query, {"scope": scope, "subject": subject, "window": window_seconds}).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


def forgive_attempts(conn: Conn, schema: str, username_key: str, client_address: str) -> None:
    """After a successful log-in: clear the username's counter, take one off the address's."""
    t = _t(schema, "login_attempts")
    conn.execute(
        sql.SQL("DELETE FROM {} WHERE scope = 'username' AND subject = %s").format(t), (username_key,)
    )
    conn.execute(
        sql.SQL(
            "UPDATE {} SET attempts = greatest(attempts - 1, 0) WHERE scope = 'ip' AND subject = %s"
        ).format(t),
        (client_address,),
    )
