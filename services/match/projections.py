"""``match_index``: one row per match (game, players, mode, status, version, turn, deadline, presence).

The row is the match as the domain folds it (``domain.Match``): status (``created``, the game's
phase, ``ended`` or ``rejected``), turn and active player (``Game.progress``), whom it waits for and
until when (``Game.waits``), who is disconnected, winner and reason (``Game.result``). The service
writes it in the same transaction as every append (``apply``, from the match after the batch), so
the sweep and the listing never lag; it is still a pure projection of the match streams, rebuilt
from zero with ``python -m libs.bus.rebuild --schema match --projection
services.match.projections:projection``. Every write is guarded by the stream version, so applying
a batch twice changes nothing.
"""

from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg import sql

from libs.eventstore import RecordedEvent
from services.match import domain
from services.match.domain import Match

if TYPE_CHECKING:
    from libs.bus import Projection

STREAM_PREFIX = "match-"
_COLUMNS = (
    "match_id", "game", "mode", "players", "bot", "status", "version", "turn", "active_player", "awaiting",
    "deadline", "disconnected", "winner", "reason", "created_at", "updated_at", "bots", "watched",
)  # fmt: skip
_UPDATED = [
    c for c in _COLUMNS if c not in ("match_id", "game", "mode", "players", "bot", "bots", "created_at")
]


def row(m: Match, updated_at: Any) -> dict[str, Any]:
    """The index row of ``m`` (its last event stored at ``updated_at``)."""
    progress = domain.game_of(m).progress(m.rules) if m.rules is not None else None
    result = domain.game_of(m).result(m.rules) if m.rules is not None else None
    if m.rejected:
        status = "rejected"
    elif result is not None:
        status = "ended"
    else:
        status = progress.phase if progress is not None else "created"
    return {
        "match_id": m.match_id,
        "game": m.game,
        "mode": m.mode,
        "players": list(m.players),
        "bot": m.bot,
        "status": status,
        "version": m.version,
        "turn": progress.turn if progress is not None else 0,
        "active_player": progress.active if progress is not None and result is None else None,
        "awaiting": domain.awaiting(m),
        "deadline": domain.deadline(m),
        "disconnected": json.dumps({p: t.isoformat() for p, t in m.disconnected.items()}),
        "winner": result.winner if result is not None else None,
        "reason": result.reason if result is not None else None,
        "created_at": m.created_at,
        "updated_at": updated_at,
        "bots": list(m.bots),
        "watched": domain.watched(m),
    }


@functools.lru_cache(maxsize=64)
def _upsert_sql(schema: str, notify: bool) -> sql.Composed:
    """The upsert of one row (guarded by the version); with ``notify`` it also announces the
    batch (``pg_notify``, sent on commit) in the same statement."""
    upsert = sql.SQL(
        "INSERT INTO {t} AS i ({cols}) VALUES ({vals}) ON CONFLICT (match_id) DO UPDATE SET {sets} "
        "WHERE i.version < excluded.version"
    ).format(
        t=sql.Identifier(schema, "match_index"),
        cols=sql.SQL(", ").join(map(sql.Identifier, _COLUMNS)),
        vals=sql.SQL(", ").join(sql.Placeholder(c) for c in _COLUMNS),
        sets=sql.SQL(", ").join(sql.SQL("{c} = excluded.{c}").format(c=sql.Identifier(c)) for c in _UPDATED),
    )
    if not notify:
        return upsert
    # A data-modifying CTE always runs, referenced or not: one round trip for both.
    return sql.SQL("WITH written AS ({}) SELECT pg_notify(%(notify_channel)s, %(notify_payload)s)").format(
        upsert
    )


_BYTES: dict[tuple[str, bool], bytes] = {}


def _upsert_bytes(conn: psycopg.Connection[Any], schema: str, notify: bool) -> bytes:
    """``_upsert_sql`` rendered once (psycopg caches the parsing of bytes queries)."""
    found = _BYTES.get((schema, notify))
    if found is None:
        found = _BYTES[(schema, notify)] = _upsert_sql(schema, notify).as_bytes(conn)
    return found


def apply(
    conn: psycopg.Connection[Any],
    schema: str,
    after: Match,
    updated_at: Any,
    *,
    notify: tuple[str, str] | None = None,
) -> None:
    """Write the index row of ``after`` (the match after a batch; its last event stored at
    ``updated_at``). ``notify`` = (channel, payload): also ``pg_notify`` it in the same statement."""
    params = row(after, updated_at)
    if notify is not None:
        params["notify_channel"], params["notify_payload"] = notify
    conn.execute(_upsert_bytes(conn, schema, notify is not None), params)


def projection(schema: str) -> Projection:
    """The rebuildable projection (for ``libs.bus.rebuild``): one event at a time, each stream folded
    as it goes."""
    from libs.bus import Projection  # not at import: the web app does not need Kafka's client

    folded: dict[str, Match] = {}

    def handle(event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
        if not event.stream.startswith(STREAM_PREFIX):
            return
        m = domain.evolve_match(
            folded.get(event.stream), event.type, event.data, event.occurred_at, event.version
        )
        folded[event.stream] = m
        apply(conn, schema, m, event.occurred_at)

    return Projection("match_index", ("match_index",), handle)
