"""Apply every service's migrations: ``python -m libs.db.migrate_all`` (uses ``DATABASE_URL``, or
the database of a running ``make run``).

For each service (``libs.kit.service_names()``: a package ``services/<svc>/`` with a
``root.py``) the schema ``<svc>`` gets the shared tables (event store,
bus, web idempotency) plus the files of ``services/<svc>/migrations/`` when present. Safe to run
twice (and concurrently: ``migrate`` takes an advisory lock).
"""

from __future__ import annotations

import sys
from pathlib import Path

import psycopg

from libs.config import DatabaseNotFound, database_url
from libs.db.migrate import migrate
from libs.db.roles import ANALYST_ROLE, grant_events_read
from libs.kit.registry import SERVICES_DIR, service_names


def service_folders() -> dict[str, list[Path]]:
    """Service name → its migration folders."""
    found: dict[str, list[Path]] = {}
    for name in service_names():
        migrations = SERVICES_DIR / name / "migrations"
        found[name] = [migrations] if migrations.is_dir() else []
    return found


def migrate_all(url: str) -> dict[str, list[str]]:
    """Migrate every service's schema; returns the files applied now, per service. When the
    analysts' role exists (``libs.db.roles``), it may then read every event table."""
    applied = {svc: migrate(url, svc, folders) for svc, folders in service_folders().items()}
    with psycopg.connect(url, autocommit=True) as conn:
        for svc in applied:
            grant_events_read(conn, svc, ANALYST_ROLE)
    return applied


def main() -> int:
    try:
        url = database_url()  # or DATABASE_URL_FILE (the migration role's URL)
    except DatabaseNotFound as exc:
        print(exc, file=sys.stderr)
        return 2
    for svc, applied in migrate_all(url).items():
        print(f"{svc}: {', '.join(applied) if applied else 'up to date'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
