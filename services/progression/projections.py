"""Progression's read models, a projection of its own streams (tables in migrations/001).

The service applies each append's events here in the append's transaction, so reads never lag;
the tables stay a pure projection, rebuilt from zero with
``python -m libs.bus.rebuild --schema progression --projection services.progression.projections:projection``.
``projected_streams`` holds the last version applied per stream: an event applied twice changes nothing.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg import sql

from libs.eventstore import RecordedEvent
from services.progression.domain import QUESTS

if TYPE_CHECKING:
    from libs.bus import Projection

TABLES = (
    "projected_streams",
    "quest_days",
    "quest_progress",
    "streak_days",
    "streaks",
    "pass_progress",
    "rewards",
    "line_progress",
)

_GUARD = (
    "INSERT INTO {projected_streams} (stream, version) VALUES (%(stream)s, %(version)s) "
    "ON CONFLICT (stream) DO UPDATE SET version = EXCLUDED.version "
    "WHERE {projected_streams}.version < EXCLUDED.version RETURNING 1"
)
_MARK = (
    "INSERT INTO {projected_streams} (stream, version) VALUES (%(stream)s, %(version)s) "
    "ON CONFLICT (stream) DO UPDATE SET version = EXCLUDED.version"
)
_SQL: dict[str, str] = {
    "QuestsOffered": (
        "INSERT INTO {quest_days} (player_id, day) VALUES (%(player_id)s, %(day)s);"
        "INSERT INTO {quest_progress} (player_id, day, quest_id, difficulty, target) "
        "SELECT %(player_id)s, %(day)s, q.id, q.difficulty, q.target "
        "FROM jsonb_to_recordset(%(quests)s::jsonb) AS q(id TEXT, difficulty TEXT, target INTEGER)"
    ),
    "QuestSwapped": (
        "UPDATE {quest_days} SET swapped = true WHERE player_id = %(player_id)s AND day = %(day)s;"
        "UPDATE {quest_progress} SET quest_id = %(replacement)s, target = %(target)s, progress = 0 "
        "WHERE player_id = %(player_id)s AND day = %(day)s AND quest_id = %(quest_id)s"
    ),
    "QuestProgressed": (
        "UPDATE {quest_progress} SET progress = %(progress)s "
        "WHERE player_id = %(player_id)s AND day = %(day)s AND quest_id = %(quest_id)s"
    ),
    "QuestCompleted": (
        "UPDATE {quest_progress} SET completed = true "
        "WHERE player_id = %(player_id)s AND day = %(day)s AND quest_id = %(quest_id)s"
    ),
    "StreakDayKept": (
        "INSERT INTO {streak_days} (player_id, day, streak_day, forgiven, coins, packs) "
        "VALUES (%(player_id)s, %(day)s, %(streak_day)s, %(forgiven)s, %(coins)s, %(packs)s);"
        "INSERT INTO {streaks} (player_id, last_day, streak_day, forgiveness_from) "
        "VALUES (%(player_id)s, %(day)s, %(streak_day)s, %(forgiveness_from)s) "
        "ON CONFLICT (player_id) DO UPDATE SET last_day = EXCLUDED.last_day, "
        "streak_day = EXCLUDED.streak_day, forgiveness_from = EXCLUDED.forgiveness_from"
    ),
    "PassXpEarned": (
        "INSERT INTO {pass_progress} (player_id, season_id, xp, level) "
        "VALUES (%(player_id)s, %(season_id)s, %(total_xp)s, %(level)s) "
        "ON CONFLICT (player_id, season_id) DO UPDATE SET xp = EXCLUDED.xp, level = EXCLUDED.level"
    ),
    "ArenaXpEarned": (
        "INSERT INTO {line_progress} (track, player_id, arena_xp) VALUES (%(track)s, %(player_id)s, "
        "%(arena_xp)s) ON CONFLICT (track, player_id) DO UPDATE SET arena_xp = EXCLUDED.arena_xp"
    ),
    "TrainingBattleFought": (
        "INSERT INTO {line_progress} (track, player_id, training_battles) "
        "VALUES (%(track)s, %(player_id)s, %(training_battles)s) "
        "ON CONFLICT (track, player_id) DO UPDATE SET training_battles = EXCLUDED.training_battles"
    ),
    "RewardGranted": (
        "INSERT INTO {rewards} (reward_id, player_id, coins, packs, reason, source, granted_at) "
        "VALUES (%(reward_id)s, %(player_id)s, %(coins)s, %(packs)s, %(reason)s, %(source)s::jsonb, "
        "%(occurred_at)s)"
    ),
}


TRACK_EVENTS = ("ArenaXpEarned", "TrainingBattleFought")


@functools.lru_cache(maxsize=64)
def _statements(schema: str, key: str) -> tuple[sql.Composed, ...]:
    text = {"guard": _GUARD, "mark": _MARK}.get(key) or _SQL[key]
    tables = {t: sql.Identifier(schema, t) for t in TABLES}
    return tuple(sql.SQL(part).format(**tables) for part in text.split(";"))


def _params(event: RecordedEvent) -> dict[str, Any]:
    d = dict(event.data)
    if event.type == "QuestsOffered":
        d["quests"] = json.dumps([QUESTS[q].to_dict() for q in d["quests"]])
    elif event.type == "QuestSwapped":
        d["target"] = QUESTS[d["replacement"]].target
    elif event.type == "RewardGranted":
        d["source"] = json.dumps(d["source"])
        d["occurred_at"] = event.occurred_at
    elif event.type in TRACK_EVENTS:  # of the stream <track>-<player>
        d["track"] = event.stream.removesuffix(f"-{d['player_id']}")
    return d


def apply(conn: psycopg.Connection[Any], schema: str, event: RecordedEvent) -> bool:
    """Apply one event; False when its stream was already projected up to it (nothing done)."""
    guard = _statements(schema, "guard")[0]
    if conn.execute(guard, {"stream": event.stream, "version": event.version}).fetchone() is None:
        return False
    if event.type in _SQL:
        params = _params(event)
        for statement in _statements(schema, event.type):
            conn.execute(statement, params)
    return True


def apply_appended(conn: psycopg.Connection[Any], schema: str, events: Sequence[RecordedEvent]) -> None:
    """Apply the events of ONE stream that this transaction has just appended (so none of them can
    have been applied yet): statements only, no result read, so a pipeline sends them at once."""
    for event in events:
        if event.type in _SQL:
            params = _params(event)
            for statement in _statements(schema, event.type):
                conn.execute(statement, params)
    if events:
        last = events[-1]
        conn.execute(_statements(schema, "mark")[0], {"stream": last.stream, "version": last.version})


def handler(schema: str) -> Callable[[RecordedEvent, psycopg.Connection[Any]], None]:
    def handle(event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
        apply(conn, schema, event)

    return handle


def projection(schema: str) -> Projection:
    """The rebuildable projection (for ``libs.bus.rebuild``)."""
    from libs.bus import Projection  # not at import: the web app does not need Kafka's client

    return Projection("progression_read_models", TABLES, handler(schema))
