"""The ``suspensions`` table of accounts (``migrations/005_suspensions.sql``): who is suspended now,
and the refusals of the operator actions on it (``admin.py``) and of a suspended player's log-in
(``service.py``)."""

from __future__ import annotations

import uuid
from typing import Any

import psycopg
from psycopg import sql

from services.accounts.domain import AccountsError

Conn = psycopg.Connection[Any]


class AlreadySuspended(AccountsError):
    """The account is suspended already."""


class NotSuspended(AccountsError):
    """The account is not suspended: nothing to restore."""


class AccountIsSuspended(AccountsError):
    """A log-in (with the right password) to a suspended account."""


def suspensions_table(schema: str) -> sql.Identifier:
    return sql.Identifier(schema, "suspensions")


def is_suspended(conn: Conn, schema: str, player_id: uuid.UUID) -> bool:
    query = sql.SQL("SELECT 1 FROM {} WHERE player_id = %s").format(suspensions_table(schema))
    return conn.execute(query, (player_id,)).fetchone() is not None


def refuse_if_suspended(conn: Conn, schema: str, player_id: uuid.UUID) -> None:
    """Raise ``AccountIsSuspended`` for a suspended player (a log-in checks, after the password)."""
    if is_suspended(conn, schema, player_id):
        raise AccountIsSuspended()
