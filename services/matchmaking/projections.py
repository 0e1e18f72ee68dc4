"""``tickets`` and ``last_opponents`` (per game): the read models of the ``ticket-<id>`` streams.
A ranked ticket's first opponent becomes its player's previous opponent when the match was created
(``TicketMatched``), not when it was requested: a ticket returned to waiting played no one.

The service applies its events in the same transaction as the append (``apply``); the projection
rebuilds them from zero: ``python -m libs.bus.rebuild --schema matchmaking --projection
services.matchmaking.projections:projection``. Updates are guarded by the stream version, so
applying an event twice changes nothing. Opening a ticket while the player has another open one
violates ``tickets_one_open_per_player`` (the service turns that into ``TicketAlreadyOpen``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import psycopg
from psycopg import sql

from libs.eventstore import RecordedEvent
from services.matchmaking import domain

if TYPE_CHECKING:
    from libs.bus import Projection

_STATUS = {
    domain.TICKET_PAIRED: domain.PAIRED,
    domain.TICKET_MATCHED: domain.MATCHED,
    domain.TICKET_FAILED: domain.FAILED,
    domain.TICKET_CANCELLED: domain.CANCELLED,
}


def _open(conn: psycopg.Connection[Any], schema: str, e: RecordedEvent) -> None:
    """A waiting ticket; ``deck`` written empty (no deck list kept: the previous release reads it)."""
    d = e.data
    conn.execute(
        sql.SQL(
            "INSERT INTO {} (ticket_id, player_id, mode, rating, deck, deck_id, deck_version, status, "
            "opened_at, version, game, sizes) VALUES (%s, %s, %s, %s, '{{}}', %s, %s, 'waiting', %s, %s, "
            "%s, %s) "
            "ON CONFLICT (ticket_id) DO NOTHING"
        ).format(sql.Identifier(schema, "tickets")),
        (
            d["ticket_id"],
            d["player_id"],
            d["mode"],
            d["rating"],
            d.get("deck_id"),
            d.get("deck_version", 0),
            d["opened_at"],
            e.version,
            d.get("game", domain.DEFAULT_GAME),  # tickets before games: Arcana's, tables of 2
            d.get("sizes", [2]),
        ),
    )


def _change(conn: psycopg.Connection[Any], schema: str, e: RecordedEvent) -> None:
    d = e.data
    conn.execute(
        sql.SQL(
            "UPDATE {} SET status = %s, version = %s, request_id = coalesce(%s, request_id), "
            "match_id = coalesce(%s, match_id), paired_at = coalesce(%s, paired_at), "
            "opponent_id = coalesce(%s, opponent_id) WHERE ticket_id = %s AND version < %s"
        ).format(sql.Identifier(schema, "tickets")),
        (
            _STATUS[e.type],
            e.version,
            d.get("request_id"),
            d.get("match_id"),
            d.get("paired_at"),
            d.get("opponent_id"),
            d["ticket_id"],
            e.version,
        ),
    )
    if e.type == domain.TICKET_MATCHED:  # a previous opponent is one a match was created with
        conn.execute(
            sql.SQL(
                "INSERT INTO {o} (player_id, game, opponent_id) SELECT player_id, game, opponent_id "
                "FROM {t} WHERE ticket_id = %s AND mode = 'ranked' AND opponent_id IS NOT NULL "
                "ON CONFLICT (player_id, game) DO UPDATE SET opponent_id = EXCLUDED.opponent_id"
            ).format(o=sql.Identifier(schema, "last_opponents"), t=sql.Identifier(schema, "tickets")),
            (d["ticket_id"],),
        )


def _returned(conn: psycopg.Connection[Any], schema: str, e: RecordedEvent) -> None:
    """Back to waiting: no request, match or opponent; not paired before ``pair_after``."""
    conn.execute(
        sql.SQL(
            "UPDATE {} SET status = 'waiting', version = %s, request_id = NULL, match_id = NULL, "
            "paired_at = NULL, opponent_id = NULL, pair_after = %s WHERE ticket_id = %s AND version < %s"
        ).format(sql.Identifier(schema, "tickets")),
        (e.version, e.data["pair_after"], e.data["ticket_id"], e.version),
    )


def apply(conn: psycopg.Connection[Any], schema: str, event: RecordedEvent) -> None:
    """Apply one stored event (request streams and unknown types change nothing here)."""
    if event.type == domain.TICKET_OPENED:
        _open(conn, schema, event)
    elif event.type == domain.TICKET_RETURNED:
        _returned(conn, schema, event)
    elif event.type in _STATUS:
        _change(conn, schema, event)


def projection(schema: str) -> Projection:
    """The rebuildable projection (for ``libs.bus.rebuild``)."""
    from libs.bus import Projection  # not at import: the web app does not need Kafka's client

    def handle(event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
        apply(conn, schema, event)

    return Projection("tickets", ("tickets", "last_opponents"), handle)
