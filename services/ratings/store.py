"""SQL of the ratings service besides the event store: display names, one rating, history pages and
leaderboard pages (all read models of the ``ratings`` schema). Every read of a ladder names its game:
each game's rows are apart in the same tables (``ratings``, ``rating_history``)."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import sql
from psycopg.rows import dict_row


def save_display_name(
    conn: psycopg.Connection[Any], schema: str, player_id: str, display_name: str, version: int
) -> None:
    """Keep the player's public name as of accounts' stream ``version`` (an older one changes nothing)."""
    conn.execute(
        sql.SQL(
            "INSERT INTO {t} AS d (player_id, display_name, version) VALUES (%s, %s, %s) "
            "ON CONFLICT (player_id) DO UPDATE SET display_name = EXCLUDED.display_name, "
            "version = EXCLUDED.version WHERE d.version < EXCLUDED.version"
        ).format(t=sql.Identifier(schema, "display_names")),
        (player_id, display_name, version),
    )


def rating_row(
    conn: psycopg.Connection[Any], schema: str, player_id: str, game: str
) -> dict[str, Any] | None:
    """The player's rating row on the ladder of ``game`` with their display name (either may be
    missing: None when both are)."""
    query = sql.SQL(
        "SELECT p.player_id, u.display_name, r.rating, r.tier, r.highest_tier, r.wins, r.losses "
        "FROM (SELECT %s::text AS player_id) p "
        "LEFT JOIN {r} r ON r.player_id = p.player_id AND r.game = %s "
        "LEFT JOIN {u} u ON u.player_id = p.player_id "
        "WHERE r.player_id IS NOT NULL OR u.player_id IS NOT NULL"
    ).format(r=sql.Identifier(schema, "ratings"), u=sql.Identifier(schema, "display_names"))
    with conn.cursor(row_factory=dict_row) as cur:
        return cur.execute(query, (player_id, game)).fetchone()


def history_page(
    conn: psycopg.Connection[Any],
    schema: str,
    player_id: str,
    before_version: int | None,
    limit: int,
    game: str,
) -> list[dict[str, Any]]:
    """Up to ``limit`` + 1 history rows of ``game``, newest first, with versions below ``before_version``."""
    query = sql.SQL(
        "SELECT version, match_id, result, before, after, delta, tier, highest_tier, at, reason FROM {} "
        "WHERE game = %s AND player_id = %s AND version < %s ORDER BY version DESC LIMIT %s"
    ).format(sql.Identifier(schema, "rating_history"))
    upper = before_version if before_version is not None else 2**31 - 1
    with conn.cursor(row_factory=dict_row) as cur:
        return cur.execute(query, (game, player_id, upper, limit + 1)).fetchall()


def leaderboard_page(
    conn: psycopg.Connection[Any],
    schema: str,
    after: tuple[int, str] | None,
    limit: int,
    game: str,
) -> list[dict[str, Any]]:
    """Up to ``limit`` + 1 rows of the ladder of ``game`` in leaderboard order (rating descending,
    player id ascending) strictly after the ``(rating, player_id)`` cursor, with display names."""
    where = (
        sql.SQL("AND (r.rating < %(r)s OR (r.rating = %(r)s AND r.player_id > %(p)s))")
        if after
        else sql.SQL("")
    )
    query = sql.SQL(
        "SELECT r.player_id, u.display_name, r.rating, r.tier, r.highest_tier, r.wins, r.losses FROM {r} r "
        "LEFT JOIN {u} u ON u.player_id = r.player_id WHERE r.game = %(g)s {where} "
        "ORDER BY r.rating DESC, r.player_id ASC LIMIT %(n)s"
    ).format(r=sql.Identifier(schema, "ratings"), u=sql.Identifier(schema, "display_names"), where=where)
    params = {"g": game, "r": after[0] if after else None, "p": after[1] if after else None, "n": limit + 1}
    with conn.cursor(row_factory=dict_row) as cur:
        return cur.execute(query, params).fetchall()


def position_of(
    conn: psycopg.Connection[Any], schema: str, rating: int, player_id: str, game: str
) -> tuple[int, int]:
    """On the ladder of ``game``: (rows ranked strictly higher by rating, rows before it in
    leaderboard order)."""
    query = sql.SQL(
        "SELECT count(*) FILTER (WHERE rating > %(r)s), "
        "count(*) FILTER (WHERE rating > %(r)s OR (rating = %(r)s AND player_id < %(p)s)) "
        "FROM {} WHERE game = %(g)s AND rating >= %(r)s"
    ).format(sql.Identifier(schema, "ratings"))
    row = conn.execute(query, {"g": game, "r": rating, "p": player_id}).fetchone()
    return (int(row[0]), int(row[1])) if row else (0, 0)


def save_started(
    conn: psycopg.Connection[Any], schema: str, match_id: str, players: list[str], at: Any
) -> None:
    """Remember that the ranked match ``match_id`` of ``players`` started (a redelivery changes nothing)."""
    conn.execute(
        sql.SQL(
            "INSERT INTO {} (match_id, players, created_at) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING"
        ).format(sql.Identifier(schema, "started_matches")),
        (match_id, sorted(players), at),
    )


def started_players(conn: psycopg.Connection[Any], schema: str, match_id: str) -> list[str] | None:
    """The players of the ranked match ``match_id`` as it started, or None when it never did here."""
    row = conn.execute(
        sql.SQL("SELECT players FROM {} WHERE match_id = %s").format(
            sql.Identifier(schema, "started_matches")
        ),
        (match_id,),
    ).fetchone()
    return list(row[0]) if row else None
