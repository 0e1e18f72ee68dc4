"""``match_index``: one row per match (players, mode, status, version, turn, deadline, presence).

The service updates it in the same transaction as every append (``apply``), so the sweep and the
listing never lag; it is still a pure projection of the match streams, rebuilt from zero with
``python -m libs.bus.rebuild --schema match --projection services.match.projections:projection``.
Every update is guarded by the stream version, so applying an event twice changes nothing.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg import sql

from libs.eventstore import RecordedEvent
from services.match import domain

if TYPE_CHECKING:
    from libs.bus import Projection

STREAM_PREFIX = "match-"


def _changes(events: Sequence[RecordedEvent]) -> dict[str, Any]:
    """The column changes a batch of one stream's events makes (last one wins)."""
    c: dict[str, Any] = {"disc_add": {}, "disc_rm": set(), "await_rm": []}
    for e in events:
        d = e.data
        c["version"] = e.version
        c["updated_at"] = e.occurred_at
        if e.type == "MatchStarted":
            c.update(status="mulligan", awaiting=[p["id"] for p in d["players"]], await_rm=[])
            c["deadline"] = e.occurred_at + timedelta(seconds=domain.MULLIGAN_SECONDS)
        elif e.type == "MulliganCompleted":
            c["await_rm"].append(d["player"])
        elif e.type == "TurnStarted":
            c.update(status="playing", turn=d["turn"], active_player=d["player"], awaiting=[d["player"]])
            c.update(await_rm=[], deadline=e.occurred_at + timedelta(seconds=domain.TURN_SECONDS))
        elif e.type == "MatchEnded":
            c.update(status="ended", awaiting=[], await_rm=[], deadline=None, winner=d["winner"])
            c.update(reason=d["reason"], active_player=None)
        elif e.type == domain.PLAYER_DISCONNECTED:
            c["disc_add"][d["player"]] = d["since"]
            c["disc_rm"].discard(d["player"])
        elif e.type == domain.PLAYER_RECONNECTED:
            c["disc_add"].pop(d["player"], None)
            c["disc_rm"].add(d["player"])
    return c


_PLAIN = ("status", "turn", "active_player", "deadline", "winner", "reason")


@functools.lru_cache(maxsize=256)
def _update_sql(schema: str, plain: tuple[str, ...], awaiting: bool, notify: bool) -> sql.Composed:
    """The UPDATE for a batch setting ``plain`` columns (and ``awaiting`` when given); with
    ``notify`` it also announces the batch (``pg_notify``) in the same statement."""
    table = sql.Identifier(schema, "match_index")
    sets: list[sql.Composable] = [sql.SQL("version = %(version)s"), sql.SQL("updated_at = %(updated_at)s")]
    sets += [sql.SQL("{} = %({})s").format(sql.Identifier(k), sql.SQL(k)) for k in plain]
    sets.append(
        sql.SQL(
            "awaiting = (SELECT coalesce(array_agg(a), '{{}}') FROM unnest({}) AS a "
            "WHERE NOT a = ANY(%(await_rm)s::text[]))"
        ).format(sql.SQL("%(awaiting)s::text[]") if awaiting else sql.SQL("awaiting"))
    )
    sets.append(sql.SQL("disconnected = (disconnected - %(disc_rm)s::text[]) || %(disc_add)s::jsonb"))
    update = sql.SQL("UPDATE {} SET {} WHERE match_id = %(match_id)s AND version < %(version)s").format(
        table, sql.SQL(", ").join(sets)
    )
    if not notify:
        return update
    # A data-modifying CTE always runs, referenced or not: one round trip for both.
    return sql.SQL("WITH updated AS ({}) SELECT pg_notify(%(notify_channel)s, %(notify_payload)s)").format(
        update
    )


_BYTES: dict[tuple[str, tuple[str, ...], bool, bool], bytes] = {}


def _update_bytes(
    conn: psycopg.Connection[Any], schema: str, plain: tuple[str, ...], awaiting: bool, notify: bool
) -> bytes:
    """``_update_sql`` rendered once (psycopg caches the parsing of bytes queries)."""
    key = (schema, plain, awaiting, notify)
    found = _BYTES.get(key)
    if found is None:
        found = _BYTES[key] = _update_sql(*key).as_bytes(conn)
    return found


def apply(
    conn: psycopg.Connection[Any],
    schema: str,
    events: Sequence[RecordedEvent],
    *,
    notify: tuple[str, str] | None = None,
) -> None:
    """Apply a batch of events of ONE match stream (in version order) to the index.

    ``notify`` = (channel, payload): also ``pg_notify`` them (on commit) in the same statement."""
    if not events:
        return
    table = sql.Identifier(schema, "match_index")
    first = events[0]
    if first.type in (domain.MATCH_CREATED, domain.MATCH_REQUEST_REJECTED):
        d = first.data
        rejected = first.type == domain.MATCH_REQUEST_REJECTED
        players = [p if isinstance(p, str) else str(p) for p in d.get("players") or [] if p is not None]
        conn.execute(
            sql.SQL(
                "INSERT INTO {} (match_id, mode, players, bot, status, version, created_at, updated_at) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (match_id) DO NOTHING"
            ).format(table),
            (
                d["match_id"],
                str(d.get("mode")),
                players,
                d.get("bot"),
                "rejected" if rejected else "created",
                first.version,
                first.occurred_at,
                first.occurred_at,
            ),
        )
    c = _changes(events)
    query = _update_bytes(
        conn, schema, tuple(k for k in _PLAIN if k in c), "awaiting" in c, notify is not None
    )
    params = {**c, "disc_rm": sorted(c["disc_rm"]), "disc_add": json.dumps(c["disc_add"])}
    params["match_id"] = first.stream.removeprefix(STREAM_PREFIX)
    if notify is not None:
        params["notify_channel"], params["notify_payload"] = notify
    conn.execute(query, params)


def projection(schema: str) -> Projection:
    """The rebuildable projection (for ``libs.bus.rebuild``): one event at a time."""
    from libs.bus import Projection  # not at import: the web app does not need Kafka's client

    def handle(event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
        if event.stream.startswith(STREAM_PREFIX):
            apply(conn, schema, [event])

    return Projection("match_index", ("match_index",), handle)
