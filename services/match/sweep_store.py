"""SQL of the sweep over many matches at once (``usecases/batch_tick.py``): claims, presence."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import psycopg
from psycopg import sql

Conn = psycopg.Connection[Any]


def claim_many(conn: Conn, schema: str, match_ids: Sequence[str]) -> list[str]:
    """Take the sweep's claim (``store.claim_for_sweep``'s advisory lock) on each match no other sweep
    holds, in one statement: the ids taken, in the given order."""
    rows = conn.execute(
        "SELECT t.id FROM unnest(%s::text[]) WITH ORDINALITY AS t(id, n) "
        "WHERE pg_try_advisory_lock(hashtextextended(%s || t.id, 0)) ORDER BY t.n",
        (list(match_ids), f"{schema}:sweep:"),
    ).fetchall()
    return [r[0] for r in rows]


def release_many(conn: Conn, schema: str, match_ids: Sequence[str]) -> None:
    """Give back the claims ``claim_many`` took in this session."""
    if match_ids:
        conn.execute(
            "SELECT pg_advisory_unlock(hashtextextended(%s || t.id, 0)) FROM unnest(%s::text[]) AS t(id)",
            (f"{schema}:sweep:", list(match_ids)),
        )


def last_seen_many(conn: Conn, schema: str, match_ids: Sequence[str]) -> dict[str, dict[str, datetime]]:
    """``store.last_seen`` of each match, in one query."""
    rows = conn.execute(
        sql.SQL(
            "SELECT match_id::text, player_id, last_seen FROM {} WHERE match_id = ANY(%s::uuid[])"
        ).format(sql.Identifier(schema, "match_presence")),
        (list(match_ids),),
    ).fetchall()
    seen: dict[str, dict[str, datetime]] = {match_id: {} for match_id in match_ids}
    for match_id, player, at in rows:
        seen[match_id][player] = at
    return seen
