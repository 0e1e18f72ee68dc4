"""The ``suspended_players`` table of match (``migrations/008_suspended_players.sql``), kept by
``suspensions.py`` and read when a match request comes (``usecases/creation.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg import sql

Conn = psycopg.Connection[Any]


def _table(schema: str) -> sql.Identifier:
    return sql.Identifier(schema, "suspended_players")


def keep(conn: Conn, schema: str, player_id: str) -> None:
    """The player is suspended (a redelivery changes nothing)."""
    conn.execute(
        sql.SQL("INSERT INTO {} (player_id) VALUES (%s) ON CONFLICT DO NOTHING").format(_table(schema)),
        (player_id,),
    )


def forget(conn: Conn, schema: str, player_id: str) -> None:
    """The player's suspension was lifted."""
    conn.execute(sql.SQL("DELETE FROM {} WHERE player_id = %s").format(_table(schema)), (player_id,))


def suspended_among(conn: Conn, schema: str, player_ids: Sequence[str]) -> set[str]:
    """Which of ``player_ids`` are suspended."""
    rows = conn.execute(
        sql.SQL("SELECT player_id FROM {} WHERE player_id = ANY(%s)").format(_table(schema)),
        (list(player_ids),),
    ).fetchall()
    return {r[0] for r in rows}
