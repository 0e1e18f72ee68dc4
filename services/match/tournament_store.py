"""SQL of the tournaments' read model (``tournaments``, migration 007): one row per bracket, written in
the transaction of each append to its stream, read to find the filling bracket of a game, the brackets
due, and a player's brackets. Every command on a bracket first locks its row (``FOR UPDATE``): the
consumer seating entries, the players choosing decks and the sweep take their turns."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import psycopg
from psycopg import sql

from services.match.domain.bracket import Bracket

Conn = psycopg.Connection[Any]


def _t(schema: str) -> sql.Identifier:
    return sql.Identifier(schema, "tournaments")


def filling(conn: Conn, schema: str, game: str) -> str | None:
    """The oldest bracket of ``game`` still taking entries, locked; None when there is none."""
    row = conn.execute(
        sql.SQL(
            "SELECT tournament_id::text FROM {} WHERE game = %s AND filling "
            "ORDER BY opened_at LIMIT 1 FOR UPDATE"
        ).format(_t(schema)),
        (game,),
    ).fetchone()
    return row[0] if row else None


def lock(conn: Conn, schema: str, tournament_id: str, *, skip_locked: bool = False) -> bool:
    """Lock the bracket's row; False when there is none (or, ``skip_locked``, another holds it)."""
    tail = " SKIP LOCKED" if skip_locked else ""
    row = conn.execute(
        sql.SQL("SELECT 1 FROM {} WHERE tournament_id = %s FOR UPDATE" + tail).format(_t(schema)),
        (tournament_id,),
    ).fetchone()
    return row is not None


def due(conn: Conn, schema: str, now: datetime, limit: int) -> list[str]:
    """Brackets with something due at ``now``, the longest due first."""
    rows = conn.execute(
        sql.SQL(
            "SELECT tournament_id::text FROM {} WHERE NOT ended AND due_at <= %s ORDER BY due_at LIMIT %s"
        ).format(_t(schema)),
        (now, limit),
    ).fetchall()
    return [r[0] for r in rows]


def save(conn: Conn, schema: str, state: Bracket) -> None:
    """The row of ``state`` (inserted at the opening, updated after)."""
    players = [e.player_id for e in state.entrants]
    conn.execute(
        sql.SQL(
            "INSERT INTO {} (tournament_id, game, opened_at, filling, ended, due_at, players) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (tournament_id) DO UPDATE SET "
            "filling = EXCLUDED.filling, ended = EXCLUDED.ended, due_at = EXCLUDED.due_at, "
            "players = EXCLUDED.players"
        ).format(_t(schema)),
        (
            state.tournament_id,
            state.game,
            state.opened_at,
            state.filling,
            state.ended,
            state.due_at(),
            players,
        ),
    )


def of_player(conn: Conn, schema: str, player_id: str, limit: int = 20) -> list[dict[str, Any]]:
    """The player's brackets, newest first."""
    rows = conn.execute(
        sql.SQL(
            "SELECT tournament_id::text, game, opened_at, filling, ended FROM {} "
            "WHERE players @> ARRAY[%s]::text[] ORDER BY opened_at DESC LIMIT %s"
        ).format(_t(schema)),
        (player_id, limit),
    ).fetchall()
    return [
        {
            "tournament_id": r[0],
            "game": r[1],
            "opened_at": r[2].isoformat(),
            "status": "ended" if r[4] else "filling" if r[3] else "running",
        }
        for r in rows
    ]
