"""``ratings`` and ``rating_history``: the read models of every game's rating streams
(``<ladder stream>-<player>``: Arcana's ``rating-<player>``, the line's ``line-rating-<player>``), each
game's rows apart: an event's ``game`` (the default game when absent) is the rows' ``game``.

The service applies its events in the same transaction as the append (``apply``), so reads never
lag; the projection rebuilds them from zero:
``python -m libs.bus.rebuild --schema ratings --projection services.ratings.projections:projection``.
Guarded by the stream version: applying an event twice changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import psycopg
from psycopg import sql

from libs.eventstore import RecordedEvent
from services.ratings import domain

if TYPE_CHECKING:
    from libs.bus import Projection


TABLES = ("ratings", "rating_history")


def _rating_sql(schema: str, table: str) -> sql.Composed:
    return sql.SQL(
        "INSERT INTO {t} AS r (game, player_id, rating, tier, highest_tier, wins, losses, version, "
        "updated_at) VALUES (%(game)s, %(player_id)s, %(after)s, %(tier)s, %(highest_tier)s, %(win)s, "
        "%(loss)s, %(version)s, %(at)s) "
        "ON CONFLICT (game, player_id) DO UPDATE SET rating = EXCLUDED.rating, tier = EXCLUDED.tier, "
        "highest_tier = EXCLUDED.highest_tier, wins = r.wins + EXCLUDED.wins, "
        "losses = r.losses + EXCLUDED.losses, version = EXCLUDED.version, updated_at = EXCLUDED.updated_at "
        "WHERE r.version < EXCLUDED.version"
    ).format(t=sql.Identifier(schema, table))


def _history_sql(schema: str, table: str) -> sql.Composed:
    return sql.SQL(
        "INSERT INTO {t} (game, player_id, version, match_id, result, before, after, delta, tier, "
        "highest_tier, at, reason) "
        "VALUES (%(game)s, %(player_id)s, %(version)s, %(match_id)s, %(result)s, %(before)s, %(after)s, "
        "%(delta)s, %(tier)s, %(highest_tier)s, %(at)s, %(reason)s) ON CONFLICT DO NOTHING"
    ).format(t=sql.Identifier(schema, table))


def apply(conn: psycopg.Connection[Any], schema: str, event: RecordedEvent) -> None:
    """Apply one stored event of a rating stream (others are ignored). A RatingUnchanged is a history
    row only, with its reason and a delta of 0. The event's ``game`` says whose rows."""
    if event.type not in (domain.RATING_CHANGED, domain.RATING_UNCHANGED, domain.RATING_CHANGE_VOIDED):
        return
    ratings, history = TABLES
    game = event.data.get("game") or domain.DEFAULT_GAME
    row = {**event.data, "game": game, "version": event.version, "at": event.occurred_at}
    if event.type == domain.RATING_CHANGE_VOIDED:
        _voided(conn, schema, row)
        return
    if event.type == domain.RATING_UNCHANGED:
        row.update(before=row["rating"], after=row["rating"], delta=0)
        conn.execute(_history_sql(schema, history), row)
        return
    row["reason"] = event.data.get("reason")  # `floor`: the floor held the visible points
    row["win"] = int(event.data["result"] == domain.WIN)
    row["loss"] = 1 - row["win"]
    conn.execute(_rating_sql(schema, ratings), row)
    conn.execute(_history_sql(schema, history), row)


def _voided(conn: psycopg.Connection[Any], schema: str, row: dict[str, Any]) -> None:
    """The rating moved back, the voided win or loss no longer counted, and the match's history
    row marked ``voided`` (its numbers stay: what the match moved before the void)."""
    ratings, history = TABLES
    won = row["result"] == domain.WIN
    current = conn.execute(
        sql.SQL("SELECT highest_tier FROM {} WHERE game = %s AND player_id = %s").format(
            sql.Identifier(schema, ratings)
        ),
        (row["game"], row["player_id"]),
    ).fetchone()
    row.update(win=-int(won), loss=-int(not won), highest_tier=current[0] if current else row["tier"])
    conn.execute(_rating_sql(schema, ratings), row)
    conn.execute(
        sql.SQL(
            "UPDATE {} SET reason = 'voided' WHERE game = %s AND player_id = %s AND match_id = %s"
        ).format(sql.Identifier(schema, history)),
        (row["game"], row["player_id"], row["match_id"]),
    )


def projection(schema: str) -> Projection:
    """The rebuildable projection (for ``libs.bus.rebuild``)."""
    from libs.bus import Projection  # not at import: the web app does not need Kafka's client

    def handle(event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
        apply(conn, schema, event)

    return Projection("ratings", TABLES, handle)
