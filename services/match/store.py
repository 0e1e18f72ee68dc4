"""SQL of the match service besides the event store and the index projection (``projections.py``):
presence, the sweep's query and claims, listings, practice limits, NOTIFY, and the read models of
other services' events (players accounts registered, active decks economy published)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from psycopg import sql

from libs.games.registry import DEFAULT_GAME
from services.match import domain


def channel(schema: str) -> str:
    """The LISTEN/NOTIFY channel that announces new events of this schema's matches."""
    return f"{schema}_match_events"


def notify(conn: psycopg.Connection[Any], schema: str, match_id: str, version: int) -> None:
    """Announce (on commit) that ``match_id`` reached ``version``."""
    conn.execute("SELECT pg_notify(%s, %s)", (channel(schema), f"{match_id}:{version}"))


_TOUCH: dict[tuple[str, bool], bytes] = {}


def _touch_sql(conn: psycopg.Connection[Any], schema: str, relaxed: bool) -> bytes:
    # relaxed: ``synchronous_commit`` off for the statement's own (autocommit) transaction, which
    # is read at its commit: one round trip instead of BEGIN, SET LOCAL, INSERT, COMMIT.
    source = (
        "SELECT %s, %s, %s WHERE set_config('synchronous_commit', 'off', true) IS NOT NULL"
        if relaxed
        else "VALUES (%s, %s, %s)"
    )
    found = _TOUCH.get((schema, relaxed))
    if found is None:
        found = _TOUCH[(schema, relaxed)] = (
            sql.SQL(
                "INSERT INTO {t} (match_id, player_id, last_seen) " + source + " "
                "ON CONFLICT (match_id, player_id) "
                "DO UPDATE SET last_seen = greatest({t}.last_seen, EXCLUDED.last_seen)"
            )
            .format(t=sql.Identifier(schema, "match_presence"))
            .as_bytes(conn)
        )
    return found


def touch(
    conn: psycopg.Connection[Any],
    schema: str,
    match_id: str,
    player: str,
    at: datetime,
    *,
    relaxed: bool = False,
) -> None:
    """Record a request of ``player`` to the match at ``at`` (never moves backwards).

    ``relaxed`` (only on an autocommit connection): commit without waiting for the disk."""
    if relaxed and not conn.autocommit:
        raise ValueError("a relaxed touch needs an autocommit connection")
    conn.execute(_touch_sql(conn, schema, relaxed), (match_id, player, at))


def forget_presence(conn: psycopg.Connection[Any], schema: str, match_id: str) -> None:
    """A match that ended needs no presence any more."""
    conn.execute(
        sql.SQL("DELETE FROM {} WHERE match_id = %s").format(sql.Identifier(schema, "match_presence")),
        (match_id,),
    )


def last_seen(conn: psycopg.Connection[Any], schema: str, match_id: str) -> dict[str, datetime]:
    rows = conn.execute(
        sql.SQL("SELECT player_id, last_seen FROM {} WHERE match_id = %s").format(
            sql.Identifier(schema, "match_presence")
        ),
        (match_id,),
    ).fetchall()
    return {r[0]: r[1] for r in rows}


def due_matches(conn: psycopg.Connection[Any], schema: str, now: datetime, limit: int = 500) -> list[str]:
    """Running matches where something may be due at ``now``: an expired deadline, a bot to move, a
    watched player (a human still in the match) silent for 20 s, disconnected for 120 s, or back
    since being marked disconnected."""
    query = sql.SQL(
        """
        SELECT i.match_id::text FROM {index} i
        WHERE i.status NOT IN ('ended', 'rejected') AND (
            i.deadline <= %(now)s
            OR (i.bot IS NOT NULL AND (i.bot = ANY(i.awaiting) OR i.bots && i.awaiting))
            OR EXISTS (
                SELECT 1 FROM unnest(coalesce(i.watched, i.players)) AS p(id)
                LEFT JOIN {presence} s ON s.match_id = i.match_id AND s.player_id = p.id
                WHERE p.id IS DISTINCT FROM i.bot AND p.id <> ALL(i.bots) AND CASE
                    WHEN i.disconnected ? p.id THEN
                        (i.disconnected ->> p.id)::timestamptz <= %(now)s - make_interval(secs => %(forfeit)s)
                        OR s.last_seen > (i.disconnected ->> p.id)::timestamptz
                    ELSE greatest(i.created_at, s.last_seen) <= %(now)s - make_interval(secs => %(idle)s)
                END
            )
        )
        ORDER BY i.deadline NULLS LAST
        LIMIT %(limit)s
        """
    ).format(index=sql.Identifier(schema, "match_index"), presence=sql.Identifier(schema, "match_presence"))
    params = {
        "now": now,
        "forfeit": domain.DISCONNECT_FORFEIT_SECONDS,
        "idle": domain.IDLE_SECONDS,
        "limit": limit,
    }
    return [r[0] for r in conn.execute(query, params).fetchall()]


def claim_for_sweep(conn: psycopg.Connection[Any], schema: str, match_id: str) -> bool:
    """Take the sweep's claim on ``match_id`` in this session (an advisory lock) unless another sweep
    holds it: True when taken (release it with ``release_sweep_claim``), False at once otherwise."""
    key = _sweep_key(schema, match_id)
    row = conn.execute("SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", (key,)).fetchone()
    return bool(row and row[0])


def release_sweep_claim(conn: psycopg.Connection[Any], schema: str, match_id: str) -> None:
    """Give back the claim ``claim_for_sweep`` took in this session."""
    conn.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", (_sweep_key(schema, match_id),))


def _sweep_key(schema: str, match_id: str) -> str:
    return f"{schema}:sweep:{match_id}"


def matches_of(
    conn: psycopg.Connection[Any], schema: str, player: str, active_only: bool
) -> list[dict[str, Any]]:
    """The player's matches, newest first (at most 50)."""
    where = sql.SQL("AND status NOT IN ('ended', 'rejected')") if active_only else sql.SQL("")
    rows = conn.execute(
        sql.SQL(
            "SELECT match_id::text, game, mode, players, status, version, turn, active_player, deadline, "
            "winner, reason, created_at FROM {} WHERE players @> ARRAY[%s]::text[] "
            "AND status <> 'rejected' {} ORDER BY created_at DESC LIMIT 50"
        ).format(sql.Identifier(schema, "match_index"), where),
        (player,),
    ).fetchall()
    keys = ("match_id", "game", "mode", "players", "status", "version", "turn", "active_player", "deadline")
    return [dict(zip((*keys, "winner", "reason", "created_at"), r, strict=True)) for r in rows]


def lock_practice(conn: psycopg.Connection[Any], schema: str, player: str) -> None:
    """Serialise the creation of ``player``'s practice matches until this transaction ends."""
    conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (f"{schema}:practice:{player}",))


def unfinished_practice(conn: psycopg.Connection[Any], schema: str, player: str) -> str | None:
    """The id of ``player``'s unfinished practice match, if any."""
    row = conn.execute(
        sql.SQL(
            "SELECT match_id::text FROM {} WHERE players @> ARRAY[%s]::text[] AND mode = 'practice' "
            "AND status NOT IN ('ended', 'rejected') ORDER BY created_at DESC LIMIT 1"
        ).format(sql.Identifier(schema, "match_index")),
        (player,),
    ).fetchone()
    return str(row[0]) if row else None


def practice_created_since(
    conn: psycopg.Connection[Any], schema: str, player: str, since: datetime
) -> list[datetime]:
    """When ``player``'s practice matches created after ``since`` were created, oldest first."""
    rows = conn.execute(
        sql.SQL(
            "SELECT created_at FROM {} WHERE players @> ARRAY[%s]::text[] AND mode = 'practice' "
            "AND created_at > %s ORDER BY created_at"
        ).format(sql.Identifier(schema, "match_index")),
        (player, since),
    ).fetchall()
    return [r[0] for r in rows]


# -- read models of other services' events ----------------------------------------------------------


@dataclass(frozen=True)
class ActiveDeck:
    """A player's active deck as economy last published it (``ActiveDeckChanged``)."""

    deck_id: str
    cards: list[str]
    legal: bool
    problems: list[str]


def keep_active_deck(conn: psycopg.Connection[Any], schema: str, data: dict[str, Any], version: int) -> None:
    """Record one ``ActiveDeckChanged`` unless a newer one of the player for its game is recorded
    (one active deck per player and game; ``game`` absent: Arcana)."""
    conn.execute(
        sql.SQL(
            "INSERT INTO {t} AS d (player_id, deck_id, cards, legal, problems, version, game) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (player_id, game) DO UPDATE SET "
            "deck_id = excluded.deck_id, cards = excluded.cards, legal = excluded.legal, "
            "problems = excluded.problems, version = excluded.version, updated_at = now() "
            "WHERE d.version < excluded.version"
        ).format(t=sql.Identifier(schema, "active_decks")),
        (
            str(data["player_id"]),
            str(data["deck_id"]),
            json.dumps(list(data["cards"])),
            bool(data["legal"]),
            json.dumps(list(data.get("problems") or [])),
            version,
            str(data.get("game") or DEFAULT_GAME),
        ),
    )


def active_deck(
    conn: psycopg.Connection[Any], schema: str, player_id: str, game: str = DEFAULT_GAME
) -> ActiveDeck | None:
    """The player's active deck of ``game`` as economy last published it (None: never)."""
    row = conn.execute(
        sql.SQL("SELECT deck_id, cards, legal, problems FROM {} WHERE player_id = %s AND game = %s").format(
            sql.Identifier(schema, "active_decks")
        ),
        (player_id, game),
    ).fetchone()
    return ActiveDeck(str(row[0]), list(row[1]), bool(row[2]), list(row[3])) if row else None


def keep_player(conn: psycopg.Connection[Any], schema: str, player_id: str) -> None:
    """Record that the player exists (a redelivery changes nothing)."""
    conn.execute(
        sql.SQL("INSERT INTO {} (player_id) VALUES (%s) ON CONFLICT DO NOTHING").format(
            sql.Identifier(schema, "players")
        ),
        (player_id,),
    )


def known_players(conn: psycopg.Connection[Any], schema: str, player_ids: Sequence[str]) -> set[str]:
    """Which of ``player_ids`` accounts published as registered."""
    rows = conn.execute(
        sql.SQL("SELECT player_id FROM {} WHERE player_id = ANY(%s)").format(
            sql.Identifier(schema, "players")
        ),
        (list(player_ids),),
    ).fetchall()
    return {r[0] for r in rows}
