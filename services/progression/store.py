"""SQL of the progression service: the reads of its read models (written by ``projections``)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import psycopg
from psycopg import sql


def _table(schema: str, name: str) -> sql.Identifier:
    return sql.Identifier(schema, name)


def quests_of(conn: psycopg.Connection[Any], schema: str, player: str, day: dt.date) -> list[dict[str, Any]]:
    """The day's quests of ``player`` in difficulty order, with progress (empty: none offered)."""
    query = sql.SQL(
        "SELECT quest_id, difficulty, progress, target, completed FROM {} WHERE player_id = %s AND day = %s "
        "ORDER BY array_position(ARRAY['easy', 'standard', 'hard'], difficulty)"
    ).format(_table(schema, "quest_progress"))
    rows = conn.execute(query, (player, day)).fetchall()
    keys = ("quest_id", "difficulty", "progress", "target", "completed")
    return [dict(zip(keys, row, strict=True)) for row in rows]


def swapped_on(conn: psycopg.Connection[Any], schema: str, player: str, day: dt.date) -> bool:
    query = sql.SQL("SELECT swapped FROM {} WHERE player_id = %s AND day = %s").format(
        _table(schema, "quest_days")
    )
    row = conn.execute(query, (player, day)).fetchone()
    return bool(row and row[0])


def streak_row(conn: psycopg.Connection[Any], schema: str, player: str) -> tuple[Any, ...] | None:
    """(last_day, streak_day, forgiveness_from) of ``player``, or None before any visit."""
    query = sql.SQL("SELECT last_day, streak_day, forgiveness_from FROM {} WHERE player_id = %s").format(
        _table(schema, "streaks")
    )
    row = conn.execute(query, (player,)).fetchone()
    return tuple(row) if row else None


def track_row(conn: psycopg.Connection[Any], schema: str, player: str, track: str) -> tuple[int, int] | None:
    """(XP, training battles) of ``player`` on ``track``, or None before any match counted on it."""
    query = sql.SQL("SELECT arena_xp, training_battles FROM {} WHERE track = %s AND player_id = %s").format(
        _table(schema, "line_progress")
    )
    row = conn.execute(query, (track, player)).fetchone()
    return (int(row[0]), int(row[1])) if row else None


def streak_days(
    conn: psycopg.Connection[Any], schema: str, player: str, first: dt.date, last: dt.date
) -> dict[dt.date, tuple[int, bool]]:
    """Kept days between ``first`` and ``last`` (inclusive): day -> (cycle day, forgiven)."""
    query = sql.SQL(
        "SELECT day, streak_day, forgiven FROM {} WHERE player_id = %s AND day BETWEEN %s AND %s"
    ).format(_table(schema, "streak_days"))
    return {row[0]: (row[1], row[2]) for row in conn.execute(query, (player, first, last))}


def pass_row(conn: psycopg.Connection[Any], schema: str, player: str, season_id: str) -> int:
    """The player's XP in the season (0 before any)."""
    query = sql.SQL("SELECT xp FROM {} WHERE player_id = %s AND season_id = %s").format(
        _table(schema, "pass_progress")
    )
    row = conn.execute(query, (player, season_id)).fetchone()
    return int(row[0]) if row else 0


def passes_of(conn: psycopg.Connection[Any], schema: str, player: str) -> list[tuple[str, int]]:
    """(season id, level reached) of every season the player reached a level in, newest first."""
    query = sql.SQL(
        "SELECT season_id, level FROM {} WHERE player_id = %s AND level > 0 ORDER BY season_id DESC"
    ).format(_table(schema, "pass_progress"))
    return [(str(season), int(level)) for season, level in conn.execute(query, (player,))]


def rewards_of(conn: psycopg.Connection[Any], schema: str, player: str) -> list[dict[str, Any]]:
    query = sql.SQL(
        "SELECT reward_id, coins, packs, reason, source FROM {} WHERE player_id = %s ORDER BY reward_id"
    ).format(_table(schema, "rewards"))
    keys = ("reward_id", "coins", "packs", "reason", "source")
    return [dict(zip(keys, row, strict=True)) for row in conn.execute(query, (player,))]
