"""Database roles: one migration role (DDL) and one runtime role per service, limited to its schema.

``python -m libs.db.roles`` (the Job ``arcana-db-roles``, run with an administrator's URL before the
migration Job) creates or updates, for the services under ``services/``:

- ``arcana_migrate``: owns every service schema and creates their tables (``libs.db.migrate_all``
  runs as it); may create schemas in the database;
- ``<service>_app`` (e.g. ``accounts_app``): the role a service's web pods, relay and consumers use.
  ``USAGE`` on its own schema only; rows of its tables (``SELECT, INSERT, UPDATE, DELETE``,
  ``TRUNCATE`` for a projection rebuild), its sequences; no ``CREATE`` anywhere, nothing in other
  schemas. Tables the migration role creates later get the same grants (default privileges);
- ``arcana_worker``: the Celery worker runs every service's tasks, so it is a member of each
  ``<service>_app`` role (and of nothing else);
- ``arcana_analyst``: read-only, for analysts' exports and queries: ``SELECT`` on each service's
  analysts' view ``<schema>_analytics.events`` and nothing else: no event table (a running match's
  seed, decks and draws stay out of reach: ``libs.db.analyst``), no read model, no idempotency
  record, no inbox. Views that do not exist yet get the grant from ``libs.db.migrate_all`` once it
  creates them (it runs as their owner); a right on an event table given before is revoked.

Run it before the first migration: tables created earlier by another role stay that role's (then
``REASSIGN OWNED BY <that role> TO arcana_migrate`` once, as an administrator, and run this again).

Passwords come from files, one per role: ``ARCANA_ROLE_PASSWORDS_DIR/<role>`` (a mounted Secret);
a role without a file keeps its password (or has none). Safe to run again: it only converges.
Environment: ``DATABASE_URL`` (or ``DATABASE_URL_FILE``) = an administrator (``CREATEROLE`` and
the database's owner).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import psycopg
from psycopg import sql

from libs import config
from libs.config import secret_from_env
from libs.db.analyst import grant_analyst

MIGRATION_ROLE = "arcana_migrate"
WORKER_ROLE = "arcana_worker"
ANALYST_ROLE = "arcana_analyst"


def runtime_role(schema: str, prefix: str = "") -> str:
    return f"{prefix}{schema}_app"


@dataclass(frozen=True)
class RolePlan:
    """The roles to converge to: ``schemas`` each get a runtime role; names may share a prefix."""

    schemas: tuple[str, ...]
    prefix: str = ""

    @property
    def migration_role(self) -> str:
        return self.prefix + MIGRATION_ROLE

    @property
    def worker_role(self) -> str:
        return self.prefix + WORKER_ROLE

    @property
    def analyst_role(self) -> str:
        return self.prefix + ANALYST_ROLE

    def runtime_roles(self) -> dict[str, str]:
        return {schema: runtime_role(schema, self.prefix) for schema in self.schemas}

    def all_roles(self) -> list[str]:
        return [self.migration_role, *self.runtime_roles().values(), self.worker_role, self.analyst_role]


def _ensure_login_role(conn: psycopg.Connection[object], role: str, password: str | None) -> None:
    exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
    if not exists:
        conn.execute(
            sql.SQL("CREATE ROLE {} LOGIN NOSUPERUSER NOCREATEROLE NOCREATEDB").format(sql.Identifier(role))
        )
    if password is not None:
        conn.execute(sql.SQL("ALTER ROLE {} PASSWORD {}").format(sql.Identifier(role), sql.Literal(password)))


def _grant_schema(conn: psycopg.Connection[object], schema: str, owner: str, role: str) -> None:
    """``role`` gets rows (not DDL) of ``schema``'s tables, now and for tables ``owner`` adds later."""
    s, o, r = sql.Identifier(schema), sql.Identifier(owner), sql.Identifier(role)
    statements = [
        "CREATE SCHEMA IF NOT EXISTS {s} AUTHORIZATION {o}",
        "ALTER SCHEMA {s} OWNER TO {o}",
        "REVOKE ALL ON SCHEMA {s} FROM PUBLIC",
        "GRANT USAGE ON SCHEMA {s} TO {r}",
        "GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON ALL TABLES IN SCHEMA {s} TO {r}",
        "GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA {s} TO {r}",
        "GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA {s} TO {r}",
        "ALTER DEFAULT PRIVILEGES FOR ROLE {o} IN SCHEMA {s} "
        "GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON TABLES TO {r}",
        "ALTER DEFAULT PRIVILEGES FOR ROLE {o} IN SCHEMA {s} GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO {r}",
        "ALTER DEFAULT PRIVILEGES FOR ROLE {o} IN SCHEMA {s} GRANT EXECUTE ON FUNCTIONS TO {r}",
    ]
    for statement in statements:
        conn.execute(sql.SQL(statement).format(s=s, o=o, r=r))


def ensure_roles(admin_url: str, plan: RolePlan, passwords: dict[str, str]) -> None:
    """Create or update the roles of ``plan`` and their grants (``passwords``: role -> password)."""
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(hashtext('arcana.roles'))")
        try:
            for role in plan.all_roles():
                _ensure_login_role(conn, role, passwords.get(role))
            database = conn.execute("SELECT current_database()").fetchone()
            assert database is not None
            conn.execute(
                sql.SQL("GRANT CREATE, CONNECT ON DATABASE {} TO {}").format(
                    sql.Identifier(database[0]), sql.Identifier(plan.migration_role)
                )
            )
            for schema, role in plan.runtime_roles().items():
                _grant_schema(conn, schema, plan.migration_role, role)
                grant_analyst(conn, schema, plan.analyst_role)
                conn.execute(
                    sql.SQL("GRANT {} TO {}").format(sql.Identifier(role), sql.Identifier(plan.worker_role))
                )
        finally:
            conn.execute("SELECT pg_advisory_unlock(hashtext('arcana.roles'))")


def read_passwords(folder: Path | None, roles: Iterable[str]) -> dict[str, str]:
    """The password files of ``roles`` found in ``folder`` (none when it is unset)."""
    if folder is None:
        return {}
    found = {}
    for role in roles:
        path = folder / role
        if path.is_file():
            found[role] = path.read_text().strip()
    return found


def main() -> int:
    from libs.layout import service_names

    url = secret_from_env("DATABASE_URL")
    if not url:
        print("DATABASE_URL (an administrator's) is not set", file=sys.stderr)
        return 2
    plan = RolePlan(tuple(service_names()))
    folder = config.ROLE_PASSWORDS_DIR.get()
    ensure_roles(url, plan, read_passwords(Path(folder) if folder else None, plan.all_roles()))
    print("roles: " + ", ".join(plan.all_roles()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
