"""SQL migrations: ordered ``NNN_name.sql`` files applied once per schema, safe to run twice.

Each file may use ``{schema}``, replaced by the quoted schema name. Applied files are recorded in
``<schema>.schema_migrations``; an advisory lock keeps two processes from migrating at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import psycopg
from psycopg import sql

EVENTSTORE_MIGRATIONS = Path(__file__).resolve().parent.parent / "eventstore" / "migrations"
BUS_MIGRATIONS = Path(__file__).resolve().parent.parent / "bus" / "migrations"
WEB_MIGRATIONS = Path(__file__).resolve().parent.parent / "web" / "migrations"  # idempotency keys


def _files(folders: Iterable[Path]) -> list[Path]:
    found: list[Path] = []
    for folder in folders:
        found.extend(sorted(Path(folder).glob("*.sql")))
    return found


def _key(path: Path) -> str:
    return f"{path.parent.parent.name}/{path.name}"


def pending(url: str, schema: str, folders: Iterable[Path] = ()) -> list[str]:
    """The migration files of ``schema`` not applied yet (all of them when the schema is new).

    Reads only ``<schema>.schema_migrations``: a service's own role may run it (an init container
    waits on it before the pod starts, docs/upgrading.md)."""
    files = [_key(p) for p in _files([EVENTSTORE_MIGRATIONS, BUS_MIGRATIONS, WEB_MIGRATIONS, *folders])]
    with psycopg.connect(url, autocommit=True) as conn:
        exists = conn.execute(
            "SELECT to_regclass(%s) IS NOT NULL", (f"{schema}.schema_migrations",)
        ).fetchone()
        if not (exists and exists[0]):
            return files
        table = sql.SQL("SELECT name FROM {}.schema_migrations").format(sql.Identifier(schema))
        done = {row[0] for row in conn.execute(table)}
    return [f for f in files if f not in done]


def migrate(url: str, schema: str, folders: Iterable[Path] = ()) -> list[str]:
    """Create ``schema`` with the event store and bus tables plus the files in ``folders``.

    Returns the names of the files applied now (empty when everything was already applied).
    """
    files = _files([EVENTSTORE_MIGRATIONS, BUS_MIGRATIONS, WEB_MIGRATIONS, *folders])
    applied_now: list[str] = []
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(hashtext('arcana.migrate'))")
        try:
            ident = sql.Identifier(schema)
            conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(ident))
            conn.execute(
                sql.SQL(
                    "CREATE TABLE IF NOT EXISTS {}.schema_migrations "
                    "(name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
                ).format(ident)
            )
            done = {
                row[0] for row in conn.execute(sql.SQL("SELECT name FROM {}.schema_migrations").format(ident))
            }
            for path in files:
                key = _key(path)
                if key in done:
                    continue
                text = path.read_text().replace("{schema}", ident.as_string(conn))
                with conn.transaction():
                    conn.execute(text.encode())
                    conn.execute(
                        sql.SQL("INSERT INTO {}.schema_migrations (name) VALUES (%s)").format(ident), (key,)
                    )
                applied_now.append(key)
        finally:
            conn.execute("SELECT pg_advisory_unlock(hashtext('arcana.migrate'))")
    return applied_now
