"""``ratings`` and ``rating_history``: the read models of the ``rating-<player>`` streams (Arcana's
rating); ``line_ratings`` and ``line_rating_history``, the same columns, of the ``line-rating-<player>``
streams (the line's MMR). An event's ``game`` (``arcana`` when absent) says whose tables it moves.

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


TABLES: dict[str, tuple[str, str]] = {  # game -> (ratings, history)
    domain.ARCANA: ("ratings", "rating_history"),
    domain.LINE: ("line_ratings", "line_rating_history"),
}


def tables_of(game: str) -> tuple[str, str]:
    """The (ratings, history) tables of the ladder of ``game``; raises KeyError for one without."""
    return TABLES[game]


def _rating_sql(schema: str, table: str) -> sql.Composed:
    return sql.SQL(
        "INSERT INTO {t} AS r (player_id, rating, tier, highest_tier, wins, losses, version, updated_at) "
        "VALUES (%(player_id)s, %(after)s, %(tier)s, %(highest_tier)s, %(win)s, %(loss)s, "
        "%(version)s, %(at)s) "
        "ON CONFLICT (player_id) DO UPDATE SET rating = EXCLUDED.rating, tier = EXCLUDED.tier, "
        "highest_tier = EXCLUDED.highest_tier, wins = r.wins + EXCLUDED.wins, "
        "losses = r.losses + EXCLUDED.losses, version = EXCLUDED.version, updated_at = EXCLUDED.updated_at "
        "WHERE r.version < EXCLUDED.version"
    ).format(t=sql.Identifier(schema, table))


def _history_sql(schema: str, table: str) -> sql.Composed:
    return sql.SQL(
        "INSERT INTO {t} (player_id, version, match_id, result, before, after, delta, tier, "
        "highest_tier, at, reason) "
        "VALUES (%(player_id)s, %(version)s, %(match_id)s, %(result)s, %(before)s, %(after)s, %(delta)s, "
        "%(tier)s, %(highest_tier)s, %(at)s, %(reason)s) ON CONFLICT DO NOTHING"
    ).format(t=sql.Identifier(schema, table))


def apply(conn: psycopg.Connection[Any], schema: str, event: RecordedEvent) -> None:
    """Apply one stored event of a rating stream (others are ignored). A RatingUnchanged is a history
    row only, with its reason and a delta of 0. The event's ``game`` says whose tables."""
    if event.type not in (domain.RATING_CHANGED, domain.RATING_UNCHANGED):
        return
    ratings, history = tables_of(event.data.get("game") or domain.ARCANA)
    row = {**event.data, "version": event.version, "at": event.occurred_at}
    if event.type == domain.RATING_UNCHANGED:
        row.update(before=row["rating"], after=row["rating"], delta=0)
        conn.execute(_history_sql(schema, history), row)
        return
    row["reason"] = event.data.get("reason")  # `floor`: the floor held the visible points
    row["win"] = int(event.data["result"] == domain.WIN)
    row["loss"] = 1 - row["win"]
    conn.execute(_rating_sql(schema, ratings), row)
    conn.execute(_history_sql(schema, history), row)


def projection(schema: str) -> Projection:
    """The rebuildable projection (for ``libs.bus.rebuild``)."""
    from libs.bus import Projection  # not at import: the web app does not need Kafka's client

    def handle(event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
        apply(conn, schema, event)

    return Projection("ratings", tuple(t for pair in TABLES.values() for t in pair), handle)
