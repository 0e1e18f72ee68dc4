"""Migration 005 (every game's ladder rating and training battles keyed by game) on a schema the
release before it left: Arcana's ratings, the line's MMR and its training battles move in, and a ticket
is paired by them as before."""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path

from psycopg_pool import ConnectionPool

from libs.config import PROJECT_ROOT
from libs.db import migrate
from services.matchmaking import store

MIGRATIONS = PROJECT_ROOT / "services" / "matchmaking" / "migrations"
NEW = "005_game_ladders.sql"


def test_the_ratings_and_training_battles_move_into_the_game_keyed_tables(
    postgres_url: str, schema_name: str, pool: ConnectionPool, tmp_path: Path
) -> None:
    before = tmp_path / "matchmaking" / "migrations"  # the same keys (service/file), without the new file
    shutil.copytree(MIGRATIONS, before, ignore=shutil.ignore_patterns(NEW))
    migrate(postgres_url, schema_name, [before])
    ada, bob = str(uuid.uuid4()), str(uuid.uuid4())
    with pool.connection() as conn:
        conn.execute(f"INSERT INTO {schema_name}.player_ratings VALUES (%s, 1210, 4)", (ada,))
        conn.execute(f"INSERT INTO {schema_name}.line_ratings VALUES (%s, 1006, 3)", (ada,))
        for match in ("m1", "m2"):
            conn.execute(f"INSERT INTO {schema_name}.line_training VALUES (%s, %s)", (bob, match))
    assert migrate(postgres_url, schema_name, [MIGRATIONS]) == [f"matchmaking/{NEW}"]

    with pool.connection() as conn:
        assert store.rating_of(conn, schema_name, ada, "arcana") == 1210
        assert store.rating_of(conn, schema_name, ada, "line") == 1006
        assert store.rating_of(conn, schema_name, bob, "line") is None
        assert (
            store.training_battles(conn, schema_name, bob, "line"),
            store.training_battles(conn, schema_name, ada, "line"),
        ) == (2, 0)
        store.save_rating(conn, schema_name, ada, "line", 1004, 3)  # an older version changes nothing
        assert store.rating_of(conn, schema_name, ada, "line") == 1006
