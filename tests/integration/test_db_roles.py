"""Issue 12, finding 7: a migration role does the DDL; each service's runtime role reads and writes
only its own schema's rows, which is all a service needs to run. The analysts' role reads the
analysts' views only (issue 34, finding 2)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import psycopg
import pytest
from psycopg import errors as pg_errors
from psycopg import sql
from psycopg.conninfo import make_conninfo

from libs.db import make_pool
from libs.db.analyst import analytics_schema, publish_events_views
from libs.db.migrate import migrate
from libs.db.roles import RolePlan, ensure_roles
from libs.kit.web import service_app
from services.accounts.service import AccountsConfig, LoginPolicy
from tests.integration.accounts.conftest import FAST_SCRYPT, MIGRATIONS, PASSWORD
from tests.integration.conftest import settings_for_tests


@pytest.fixture
def plan(postgres_url: str) -> Iterator[RolePlan]:
    tag = uuid.uuid4().hex[:8]
    plan = RolePlan((f"acc_{tag}", f"mat_{tag}"), prefix=f"r{tag}_")
    ensure_roles(postgres_url, plan, {role: f"pw-{role}" for role in plan.all_roles()})
    yield plan


def url_as(postgres_url: str, role: str) -> str:
    return make_conninfo(postgres_url, user=role, password=f"pw-{role}")


def test_the_migration_role_migrates_and_each_service_role_runs_only_its_schema(
    postgres_url: str, plan: RolePlan
) -> None:
    accounts, match = plan.schemas
    for schema in plan.schemas:
        migrate(url_as(postgres_url, plan.migration_role), schema, [MIGRATIONS])

    accounts_role = plan.runtime_roles()[accounts]
    pool = make_pool(url_as(postgres_url, accounts_role), min_size=1, max_size=4)
    try:
        settings = settings_for_tests(url_as(postgres_url, accounts_role))
        client = service_app(
            "accounts", settings, pool, schema=accounts, config=AccountsConfig(FAST_SCRYPT, LoginPolicy())
        ).test_client()
        body = {"username": "roley", "password": PASSWORD}
        assert client.post("/v1/accounts", json=body, headers={"Idempotency-Key": "k"}).status_code == 201
        assert client.post("/v1/sessions", json=body).status_code == 201
    finally:
        pool.close()

    with psycopg.connect(url_as(postgres_url, accounts_role), autocommit=True) as conn:
        for statement in (
            sql.SQL("CREATE TABLE {} (x INT)").format(sql.Identifier(accounts, "mine")),
            sql.SQL("DROP TABLE {}").format(sql.Identifier(accounts, "players")),
            sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(match, "players")),
            sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(f"{accounts}_x")),
        ):
            with pytest.raises(pg_errors.InsufficientPrivilege):
                conn.execute(statement)

    with psycopg.connect(url_as(postgres_url, plan.worker_role), autocommit=True) as conn:
        for schema in plan.schemas:  # the Celery worker runs every service's tasks
            conn.execute(sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(schema, "login_attempts")))


def test_ensuring_the_roles_again_changes_nothing(postgres_url: str, plan: RolePlan) -> None:
    ensure_roles(postgres_url, plan, {})
    with psycopg.connect(url_as(postgres_url, plan.migration_role)) as conn:
        assert conn.execute("SELECT current_user").fetchone() == (plan.migration_role,)


def test_the_analyst_role_reads_every_service_s_events_view_and_nothing_else(
    postgres_url: str, plan: RolePlan
) -> None:
    """Issue 34, finding 2: no event table (a running match's seed and draws are in match's), only
    the analysts' views (``libs.db.analyst``); a right on an event table given by an older release
    is taken back when the roles converge."""
    accounts, match = plan.schemas
    for schema in plan.schemas:
        migrate(url_as(postgres_url, plan.migration_role), schema, [MIGRATIONS])
    with psycopg.connect(postgres_url, autocommit=True) as conn:  # what the roles Job granted before
        for schema in plan.schemas:
            conn.execute(
                sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(
                    *map(sql.Identifier, (schema, plan.analyst_role))
                )
            )
            conn.execute(
                sql.SQL("GRANT SELECT ON {} TO {}").format(
                    sql.Identifier(schema, "events"), sql.Identifier(plan.analyst_role)
                )
            )
    with psycopg.connect(url_as(postgres_url, plan.migration_role), autocommit=True) as conn:
        made = publish_events_views(conn, {"accounts": accounts, "match": match}, plan.analyst_role)
    assert made == [accounts, match]
    ensure_roles(postgres_url, plan, {})  # converging again keeps it so
    with psycopg.connect(url_as(postgres_url, plan.analyst_role), autocommit=True) as conn:
        for schema in plan.schemas:
            conn.execute(
                sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(analytics_schema(schema), "events"))
            )
        for statement in (
            sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(accounts, "events")),
            sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(match, "events")),
            sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(accounts, "players")),
            sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(match, "idempotency")),
            sql.SQL("INSERT INTO {} (position) VALUES (1)").format(
                sql.Identifier(analytics_schema(accounts), "events")
            ),
            sql.SQL("DELETE FROM {}").format(sql.Identifier(analytics_schema(match), "events")),
            sql.SQL("CREATE TABLE {} (x INT)").format(sql.Identifier(analytics_schema(accounts), "mine")),
        ):
            with pytest.raises(pg_errors.InsufficientPrivilege):
                conn.execute(statement)


def test_publishing_the_views_again_waits_for_no_running_export(postgres_url: str, plan: RolePlan) -> None:
    """Every migration publishes the views; replacing one would wait for each query on it (an
    analyst's export of hours) and hold the release's migration Job that long."""
    accounts, match = plan.schemas
    for schema in plan.schemas:
        migrate(url_as(postgres_url, plan.migration_role), schema, [MIGRATIONS])
    services = {"accounts": accounts, "match": match}
    with psycopg.connect(url_as(postgres_url, plan.migration_role), autocommit=True) as conn:
        publish_events_views(conn, services, plan.analyst_role)
    with psycopg.connect(url_as(postgres_url, plan.analyst_role)) as export:  # a transaction left open
        for schema in plan.schemas:
            export.execute(
                sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(analytics_schema(schema), "events"))
            )
        with psycopg.connect(url_as(postgres_url, plan.migration_role), autocommit=True) as conn:
            conn.execute("SET lock_timeout = '3s'")
            assert publish_events_views(conn, services, plan.analyst_role) == [accounts, match]
