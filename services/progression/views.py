"""What the API answers, read from the read models (``store``) and the data files."""

from __future__ import annotations

import datetime as dt
from typing import Any

import psycopg

from services.progression import store
from services.progression.domain import QUESTS, Season, season_by_id, season_of
from services.progression.domain.season_pass import XP_PER_LEVEL, level_of, xp_into_level
from services.progression.domain.streak import FORGIVENESS_COOLDOWN_DAYS, Streak, shown_day

HISTORY_DAYS = 30


def quests_view(conn: psycopg.Connection[Any], schema: str, player: str, day: dt.date) -> dict[str, Any]:
    rows = store.quests_of(conn, schema, player, day)
    items = [
        {
            **QUESTS[r["quest_id"]].to_dict(),
            "progress": r["progress"],
            "completed": r["completed"],
        }
        for r in rows
    ]
    return {
        "day": day,
        "quests": items,
        # a swap needs today's swap unused and a quest left that is not completed
        "swap_available": not store.swapped_on(conn, schema, player, day)
        and any(not r["completed"] for r in rows),
    }


def streak_view(conn: psycopg.Connection[Any], schema: str, player: str, today: dt.date) -> dict[str, Any]:
    row = store.streak_row(conn, schema, player)
    state = Streak(player)
    if row is not None:
        state.last_day, state.streak_day, state.forgiveness_from = row
    first = today - dt.timedelta(days=HISTORY_DAYS - 1)
    kept = store.streak_days(conn, schema, player, first, today)
    history = []
    for offset in range(HISTORY_DAYS):
        day = first + dt.timedelta(days=offset)
        streak_day, forgiven = kept.get(day, (None, False))
        history.append({"day": day, "kept": day in kept, "streak_day": streak_day, "forgiven": forgiven})
    available = state.forgiveness_available(today)
    return {
        "day": today,
        "streak_day": shown_day(state, today),
        "kept_today": state.kept_on(today),
        "forgiveness": {
            "available": available,
            "next_available_on": None if available else state.forgiveness_from,
            "cooldown_days": FORGIVENESS_COOLDOWN_DAYS,
        },
        "history": history,
    }


def track_of(season: Season) -> list[dict[str, Any]]:
    return [
        {
            "level": t.level,
            "xp_required": t.level * XP_PER_LEVEL,
            "reward": {"id": t.id, "kind": t.kind, "name": t.name},
        }
        for t in season.track
    ]


def season_out(season: Season) -> dict[str, Any]:
    return {"id": season.id, "name": season.name, "start": season.start, "end": season.end}


def pass_view(
    conn: psycopg.Connection[Any], schema: str, player: str, today: dt.date
) -> dict[str, Any] | None:
    """The pass of the season holding ``today``; None when no season does."""
    season = season_of(today)
    if season is None:
        return None
    xp = store.pass_row(conn, schema, player, season.id)
    level = level_of(xp)
    return {
        "season": season_out(season),
        "xp": xp,
        "level": level,
        "xp_into_level": xp_into_level(xp),
        "xp_per_level": XP_PER_LEVEL,
        "unlocked": [r["reward"] for r in track_of(season)[:level]],
    }


def cosmetics_view(conn: psycopg.Connection[Any], schema: str, player: str) -> dict[str, Any]:
    """Every cosmetic the player unlocked, by season (past ones included), newest season first."""
    seasons = []
    for season_id, level in store.passes_of(conn, schema, player):
        season = season_by_id(season_id)
        if season is not None:
            unlocked = [r["reward"] for r in track_of(season)[:level]]
            seasons.append({"season": season_out(season), "level": level, "unlocked": unlocked})
    return {"seasons": seasons}


def track_view(conn: psycopg.Connection[Any], schema: str, player: str, track: str) -> dict[str, Any]:
    """The XP (the line's arena XP) and training battles of ``player`` on ``track`` (0 and 0 before any)."""
    arena_xp, battles = store.track_row(conn, schema, player, track) or (0, 0)
    return {"arena_xp": arena_xp, "training_battles": battles}
