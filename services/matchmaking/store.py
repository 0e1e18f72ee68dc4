"""SQL of the matchmaking service besides the event store and the ticket projection: polls, the
waiting queue, open tickets, and the other services' facts it keeps (active decks, ratings)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import psycopg
from psycopg import sql
from psycopg.rows import dict_row

from services.matchmaking import domain


def _t(schema: str, table: str) -> sql.Identifier:
    return sql.Identifier(schema, table)


def ticket_from_row(row: dict[str, Any]) -> domain.Ticket:
    return domain.Ticket(
        ticket_id=row["ticket_id"],
        player_id=row["player_id"],
        mode=row["mode"],
        rating=row["rating"],
        deck_id=row.get("deck_id"),
        deck_version=row.get("deck_version", 0),
        opened_at=row["opened_at"],
        status=row["status"],
        version=row["version"],
        request_id=row["request_id"],
        match_id=row["match_id"],
        closed_at=row.get("paired_at"),
        game=row.get("game", domain.DEFAULT_GAME),
        sizes=tuple(row.get("sizes") or (2,)),
        pair_after=row.get("pair_after"),
    )


def touch(conn: psycopg.Connection[Any], schema: str, ticket_id: str, at: datetime) -> None:
    """Record that the ticket's player asked about it at ``at`` (never moves backwards)."""
    conn.execute(
        sql.SQL(
            "INSERT INTO {t} (ticket_id, last_polled_at) VALUES (%s, %s) ON CONFLICT (ticket_id) "
            "DO UPDATE SET last_polled_at = greatest({t}.last_polled_at, EXCLUDED.last_polled_at)"
        ).format(t=_t(schema, "ticket_polls")),
        (ticket_id, at),
    )


def pairing_run(
    conn: psycopg.Connection[Any], schema: str, lock_key: str
) -> tuple[datetime | None, datetime | None]:
    """When the pass of ``lock_key`` last ran and when it last came back from an outage."""
    row = conn.execute(
        sql.SQL("SELECT last_pass_at, resumed_at FROM {} WHERE lock_key = %s").format(
            _t(schema, "pairing_runs")
        ),
        (lock_key,),
    ).fetchone()
    return (row[0], row[1]) if row else (None, None)


def save_pairing_run(
    conn: psycopg.Connection[Any], schema: str, lock_key: str, at: datetime, resumed: datetime | None
) -> None:
    conn.execute(
        sql.SQL(
            "INSERT INTO {} (lock_key, last_pass_at, resumed_at) VALUES (%s, %s, %s) ON CONFLICT (lock_key) "
            "DO UPDATE SET last_pass_at = EXCLUDED.last_pass_at, resumed_at = EXCLUDED.resumed_at"
        ).format(_t(schema, "pairing_runs")),
        (lock_key, at, resumed),
    )


def waiting(conn: psycopg.Connection[Any], schema: str) -> list[dict[str, Any]]:
    """Every waiting ticket with its last poll, its player's previous ranked opponent in its game
    and whether their active deck of its game is legal now, as economy last published it
    (``deck_legal``)."""
    query = sql.SQL(
        "SELECT t.*, coalesce(p.last_polled_at, t.opened_at) AS last_polled_at, "
        "o.opponent_id AS last_opponent, coalesce(d.legal, true) AS deck_legal "
        "FROM {t} t LEFT JOIN {p} p USING (ticket_id) LEFT JOIN {o} o USING (player_id, game) "
        "LEFT JOIN {d} d USING (player_id, game) WHERE t.status = 'waiting'"
    ).format(
        t=_t(schema, "tickets"),
        p=_t(schema, "ticket_polls"),
        o=_t(schema, "last_opponents"),
        d=_t(schema, "active_decks"),
    )
    with conn.cursor(row_factory=dict_row) as cur:
        return cur.execute(query).fetchall()


def unanswered(conn: psycopg.Connection[Any], schema: str, paired_before: datetime) -> list[dict[str, Any]]:
    """Tickets paired before ``paired_before`` and still waiting for the match service's answer."""
    query = sql.SQL("SELECT * FROM {} WHERE status = 'paired' AND paired_at < %s").format(
        _t(schema, "tickets")
    )
    with conn.cursor(row_factory=dict_row) as cur:
        return cur.execute(query, (paired_before,)).fetchall()


def open_ticket_of(conn: psycopg.Connection[Any], schema: str, player_id: str) -> str | None:
    row = conn.execute(
        sql.SQL("SELECT ticket_id FROM {} WHERE player_id = %s AND status IN ('waiting', 'paired')").format(
            _t(schema, "tickets")
        ),
        (player_id,),
    ).fetchone()
    return str(row[0]) if row else None


def purge_closed(conn: psycopg.Connection[Any], schema: str, before: datetime) -> int:
    """Delete the read-model rows of tickets closed (matched, cancelled, failed) that were last
    active (paired, else opened) before ``before``, and the poll rows of tickets no longer open;
    returns how many tickets went. Their events stay in ``ticket-<id>``."""
    tickets = conn.execute(
        sql.SQL(
            "DELETE FROM {} WHERE status IN ('matched', 'cancelled', 'failed') "
            "AND coalesce(paired_at, opened_at) < %s"
        ).format(_t(schema, "tickets")),
        (before,),
    ).rowcount
    conn.execute(
        sql.SQL(
            "DELETE FROM {p} WHERE NOT EXISTS (SELECT 1 FROM {t} t WHERE t.ticket_id = {p}.ticket_id "
            "AND t.status IN ('waiting', 'paired'))"
        ).format(p=_t(schema, "ticket_polls"), t=_t(schema, "tickets"))
    )
    return tickets


def tickets_of_request(conn: psycopg.Connection[Any], schema: str, request_id: str) -> list[str]:
    rows = conn.execute(
        sql.SQL("SELECT ticket_id FROM {} WHERE request_id = %s ORDER BY ticket_id").format(
            _t(schema, "tickets")
        ),
        (request_id,),
    ).fetchall()
    return [str(r[0]) for r in rows]


def active_deck(
    conn: psycopg.Connection[Any], schema: str, player_id: str, game: str = domain.DEFAULT_GAME
) -> domain.ActiveDeck | None:
    row = conn.execute(
        sql.SQL("SELECT deck_id, version, legal, problems FROM {} WHERE player_id = %s AND game = %s").format(
            _t(schema, "active_decks")
        ),
        (player_id, game),
    ).fetchone()
    return domain.ActiveDeck(row[0], int(row[1]), bool(row[2]), tuple(row[3])) if row else None


def save_active_deck(
    conn: psycopg.Connection[Any],
    schema: str,
    player_id: str,
    deck: dict[str, Any],
    position: int,
    version: int,
) -> None:
    """Keep economy's newest ActiveDeckChanged of a player and game (``deck["game"]``, default
    Arcana; an older one arriving late is ignored): the deck's id, the version of economy's deck
    stream that published it, and its legality; never its cards (a ticket names the deck only)."""
    conn.execute(
        sql.SQL(
            "INSERT INTO {t} AS a (player_id, game, deck_id, cards, legal, problems, position, version) "
            "VALUES (%s, %s, %s, '{{}}', %s, %s, %s, %s) "
            "ON CONFLICT (player_id, game) DO UPDATE SET deck_id = EXCLUDED.deck_id, "
            "cards = '{{}}', legal = EXCLUDED.legal, problems = EXCLUDED.problems, "
            "position = EXCLUDED.position, version = EXCLUDED.version WHERE a.position < EXCLUDED.position"
        ).format(t=_t(schema, "active_decks")),
        (
            player_id,
            deck.get("game", domain.DEFAULT_GAME),
            deck.get("deck_id"),
            deck["legal"],
            deck["problems"],
            position,
            version,
        ),
    )


def rating_of(conn: psycopg.Connection[Any], schema: str, player_id: str, game: str) -> int | None:
    """The player's rating on the ladder of ``game`` as ratings last published it (None before any)."""
    row = conn.execute(
        sql.SQL("SELECT rating FROM {} WHERE player_id = %s AND game = %s").format(
            _t(schema, "ladder_ratings")
        ),
        (player_id, game),
    ).fetchone()
    return int(row[0]) if row else None


def save_rating(
    conn: psycopg.Connection[Any], schema: str, player_id: str, game: str, rating: int, version: int
) -> None:
    """Keep ratings' newest rating of a player on the ladder of ``game`` (by its stream version)."""
    conn.execute(
        sql.SQL(
            "INSERT INTO {t} AS r (player_id, game, rating, version) VALUES (%s, %s, %s, %s) "
            "ON CONFLICT (player_id, game) DO UPDATE SET rating = EXCLUDED.rating, "
            "version = EXCLUDED.version WHERE r.version < EXCLUDED.version"
        ).format(t=_t(schema, "ladder_ratings")),
        (player_id, game, rating, version),
    )


def training_battles(conn: psycopg.Connection[Any], schema: str, player_id: str, game: str) -> int:
    """How many practice matches of ``game`` the player finished (each match once)."""
    row = conn.execute(
        sql.SQL("SELECT count(*) FROM {} WHERE player_id = %s AND game = %s").format(
            _t(schema, "training_battles")
        ),
        (player_id, game),
    ).fetchone()
    return int(row[0]) if row else 0


def training_finished(
    conn: psycopg.Connection[Any], schema: str, game: str, match_id: str, players: list[str]
) -> None:
    for player in players:
        conn.execute(
            sql.SQL(
                "INSERT INTO {} (player_id, game, match_id) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING"
            ).format(_t(schema, "training_battles")),
            (player, game, match_id),
        )


def sizes_waiting(conn: psycopg.Connection[Any], schema: str, game: str) -> dict[int, int]:
    """Per table size, how many waiting tickets of ``game`` accept it."""
    rows = conn.execute(
        sql.SQL(
            "SELECT size, count(*) FROM {}, unnest(sizes) AS size "
            "WHERE status = 'waiting' AND game = %s GROUP BY size"
        ).format(_t(schema, "tickets")),
        (game,),
    ).fetchall()
    return {int(size): int(n) for size, n in rows}


def match_in_progress(conn: psycopg.Connection[Any], schema: str, player_id: str) -> str | None:
    """The id of an unfinished ranked or casual match of the player, if any."""
    row = conn.execute(
        sql.SQL("SELECT match_id FROM {} WHERE player_id = %s ORDER BY match_id LIMIT 1").format(
            _t(schema, "matches_in_progress")
        ),
        (player_id,),
    ).fetchone()
    return str(row[0]) if row else None


def match_started(conn: psycopg.Connection[Any], schema: str, match_id: str, players: list[str]) -> None:
    for player in players:
        conn.execute(
            sql.SQL("INSERT INTO {} (player_id, match_id) VALUES (%s, %s) ON CONFLICT DO NOTHING").format(
                _t(schema, "matches_in_progress")
            ),
            (player, match_id),
        )


def match_over(conn: psycopg.Connection[Any], schema: str, match_id: str) -> None:
    conn.execute(
        sql.SQL("DELETE FROM {} WHERE match_id = %s").format(_t(schema, "matches_in_progress")), (match_id,)
    )
