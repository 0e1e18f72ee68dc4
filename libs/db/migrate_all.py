"""Apply every service's migrations: ``python -m libs.db.migrate_all`` (uses ``DATABASE_URL``, or
the database of a running ``make run``).

For each service (``libs.layout.service_names()``: a package ``services/<svc>/`` with a
``root.py``) the schema ``<svc>`` gets the shared tables (event store,
bus, web idempotency) plus the files of ``services/<svc>/migrations/`` when present. Safe to run
twice (and concurrently: ``migrate`` takes an advisory lock).

``python -m libs.db.migrate_all --check [--wait SECONDS] [SCHEMA ...]`` applies nothing: it exits 0
when every migration file of the schemas named (default: every service's) is applied, else 1 with
the files missing; with ``--wait`` it polls until they are or the time is up. Each pod's init
container runs it with its own role, so a pod of a new release starts only once the release's
migration Job has brought its schema up to date (docs/upgrading.md).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import psycopg

from libs.config import DatabaseNotFound, database_url
from libs.db.analyst import publish_events_views
from libs.db.migrate import migrate, pending
from libs.db.roles import ANALYST_ROLE
from libs.layout import SERVICES_DIR, service_names


def service_folders() -> dict[str, list[Path]]:
    """Service name → its migration folders."""
    found: dict[str, list[Path]] = {}
    for name in service_names():
        migrations = SERVICES_DIR / name / "migrations"
        found[name] = [migrations] if migrations.is_dir() else []
    return found


def migrate_all(url: str) -> dict[str, list[str]]:
    """Migrate every service's schema; returns the files applied now, per service. Then each
    service's analysts' view (``libs.db.analyst``), which the analysts' role may read when it
    exists (``libs.db.roles``)."""
    applied = {svc: migrate(url, svc, folders) for svc, folders in service_folders().items()}
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(hashtext('arcana.migrate'))")
        try:
            publish_events_views(conn, {svc: svc for svc in applied}, ANALYST_ROLE)
        finally:
            conn.execute("SELECT pg_advisory_unlock(hashtext('arcana.migrate'))")
    return applied


def pending_all(url: str, schemas: list[str] | None = None) -> dict[str, list[str]]:
    """The files not applied yet, per schema (of ``schemas``, default every service's)."""
    folders = service_folders()
    unknown = set(schemas or ()) - set(folders)
    if unknown:
        raise ValueError(f"no such service: {', '.join(sorted(unknown))}")
    return {svc: pending(url, svc, folders[svc]) for svc in schemas or folders}


def check(url: str, schemas: list[str] | None, wait: float, poll: float = 2.0) -> int:
    """0 once every file of ``schemas`` is applied (polling up to ``wait`` seconds), else 1."""
    deadline = time.monotonic() + wait
    while True:
        try:
            missing = {svc: files for svc, files in pending_all(url, schemas).items() if files}
        except psycopg.Error as exc:  # the database not up yet, the role not created yet: wait
            missing = {"(database)": [f"{type(exc).__name__}: {str(exc).strip()[:200]}"]}
        if not missing:
            print("schema up to date: " + ", ".join(schemas or service_folders()))
            return 0
        if time.monotonic() >= deadline:
            for svc, files in missing.items():
                print(f"{svc}: not applied: {', '.join(files)}", file=sys.stderr)
            return 1
        time.sleep(poll)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m libs.db.migrate_all")
    parser.add_argument("--check", action="store_true", help="apply nothing: is every file applied?")
    parser.add_argument("--wait", type=float, default=0.0, help="with --check: poll up to this long")
    parser.add_argument("schemas", nargs="*", help="with --check: these services' schemas only")
    args = parser.parse_args(argv)
    try:
        url = database_url()  # or DATABASE_URL_FILE (the migration role's URL, or a service's)
    except DatabaseNotFound as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.check:
        return check(url, args.schemas or None, args.wait)
    if args.schemas:
        parser.error("schemas are named with --check only (a migration applies every service's)")
    for svc, applied in migrate_all(url).items():
        print(f"{svc}: {', '.join(applied) if applied else 'up to date'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
