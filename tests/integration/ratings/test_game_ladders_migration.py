"""Migration 004 (every game's ladder in ``ratings`` and ``rating_history``, keyed by game) on a schema
the release before it left: Arcana's rows stay Arcana's, the line's rows move in from ``line_ratings``
and ``line_rating_history``, and the reads of both ladders answer as before."""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path

from psycopg_pool import ConnectionPool

from libs.config import PROJECT_ROOT
from libs.db import migrate
from services.ratings.service import RatingsService

MIGRATIONS = PROJECT_ROOT / "services" / "ratings" / "migrations"
NEW = "004_game_ladders.sql"
ROW = "(player_id, rating, tier, highest_tier, wins, losses, version, updated_at)"
HISTORY = "(player_id, version, match_id, result, before, after, delta, tier, highest_tier, at, reason)"


def test_the_line_rows_move_into_the_game_keyed_tables(
    postgres_url: str, schema_name: str, pool: ConnectionPool, tmp_path: Path
) -> None:
    before = tmp_path / "ratings" / "migrations"  # the same keys (service/file), without the new file
    shutil.copytree(MIGRATIONS, before, ignore=shutil.ignore_patterns(NEW))
    migrate(postgres_url, schema_name, [before])
    ada = str(uuid.uuid4())
    with pool.connection() as conn:
        conn.execute(
            f"INSERT INTO {schema_name}.ratings {ROW} VALUES (%s, 960, 'bronze', 'bronze', 2, 1, 3, now())",
            (ada,),
        )
        conn.execute(
            f"INSERT INTO {schema_name}.line_ratings {ROW} VALUES (%s, 1003, 'none', 'none', 2, 1, 3, now())",
            (ada,),
        )
        conn.execute(
            f"INSERT INTO {schema_name}.line_rating_history {HISTORY} "
            "VALUES (%s, 3, 'm3', 'win', 1001, 1003, 2, 'none', 'none', now(), NULL)",
            (ada,),
        )  # fmt: skip
    assert migrate(postgres_url, schema_name, [MIGRATIONS]) == [f"ratings/{NEW}"]

    svc = RatingsService(pool, schema_name)
    assert (svc.mine(ada)["rating"], svc.mine(ada)["games"]) == (960, 3)
    line = svc.mine(ada, "line")
    assert (line["rating"], line["tier"], line["wins"], line["losses"]) == (1003, "none", 2, 1)
    assert [(h["match_id"], h["after"]) for h in svc.history(ada, 10, None, "line").items] == [("m3", 1003)]
    assert svc.history(ada, 10, None).items == []  # Arcana's history: none was kept
    assert [i["player_id"] for i in svc.leaderboard(10, None, "line").items] == [ada]
