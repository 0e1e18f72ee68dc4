"""What the analysts' role reads: each service's events through a view, never the event table.

For each service schema ``<schema>`` with an event table, the schema ``<schema>_analytics`` holds
one view, ``events``, with the table's columns (an ``EventStore`` on that schema reads it):

- **match**: the events of a match only once the match has ended: a stream is shown once it holds
  its ``MatchEnded`` (what ``arcana.match.records`` carries). A running match's seed, deck lists,
  deck orders and draws, and a rejected request (no match was played), are not shown;
- **matchmaking**: every event, without the deck lists older ones carried (a ``TicketOpened``'s
  ``deck``, a ``MatchRequested``'s players' ``deck``): they are for a match that may still run,
  and its topic never carries them either;
- **accounts**: every event, without the username that version 1 of ``PlayerRegistered`` and
  ``PlayerLoggedIn`` carried (analysts never need a log-in name; docs/security.md, account deletion);
- every other service: all its events. None holds a match's hidden state: accounts never store a
  password or its hash in events; economy's deck events are a player's saved decks, which economy
  publishes on its public topic for the match service anyway; ratings and progression hold what
  players see of themselves.

The views are ``security_barrier`` views owned by the role that creates them (the migration role,
owner of the tables), so the analysts' role needs no right on the tables: it gets ``USAGE`` on each
``<schema>_analytics`` and ``SELECT`` on its view, and any right it had on a service schema or its
event table (before the views) is revoked. ``libs.db.migrate_all`` makes the views after every
migration; ``libs.db.roles`` converges the grants.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import psycopg
from psycopg import sql

from libs.games import END_EVENT

ANALYTICS_SUFFIX = "_analytics"
EVENT_COLUMNS = (
    "position",
    "event_id",
    "stream",
    "version",
    "type",
    "schema_version",
    "occurred_at",
    "recorded_at",
    "correlation_id",
    "causation_id",
    "data",
)
# The services whose streams an analyst may read only once they have ended, and the event that ends one.
ENDED_STREAMS_ONLY = {"match": END_EVENT}
# Fields left out of events in the view (``data`` as an expression over ``e``), per service: deck
# lists that older matchmaking events carried (a ticket's ``deck``, a request's players' ``deck``),
# which its topic never carries either (they are for the match that plays them, maybe still running).
_WITHOUT_PLAYERS_DECKS = """jsonb_set(e.data, '{players}', coalesce((
    SELECT jsonb_agg(CASE WHEN jsonb_typeof(p) = 'object' THEN p - 'deck' ELSE p END ORDER BY n)
    FROM jsonb_array_elements(e.data -> 'players') WITH ORDINALITY AS seats(p, n)), '[]'::jsonb))"""
REDACTED_DATA = {
    "accounts": "e.data - 'username'",
    "matchmaking": f"""CASE
    WHEN e.type = 'TicketOpened' THEN e.data - 'deck'
    WHEN e.type = 'MatchRequested' AND jsonb_typeof(e.data -> 'players') = 'array'
        THEN {_WITHOUT_PLAYERS_DECKS}
    ELSE e.data END""",
}


def analytics_schema(schema: str) -> str:
    """The schema of the analysts' view of ``schema``'s events."""
    return schema + ANALYTICS_SUFFIX


def _exists(conn: psycopg.Connection[Any], schema: str, name: str) -> bool:
    """Whether ``schema.name`` exists (from the catalog: no right on the schema needed)."""
    row = conn.execute(
        "SELECT EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = %s AND c.relname = %s)",
        (schema, name),
    ).fetchone()
    return bool(row and row[0])


def has_events_view(conn: psycopg.Connection[Any], schema: str) -> bool:
    return _exists(conn, analytics_schema(schema), "events")


def readable_schema(conn: psycopg.Connection[Any], schema: str) -> str:
    """Where the tools read ``schema``'s events: its analysts' view, which every database that
    ``libs.db.migrate_all`` migrated has, else the event table (a schema migrated alone, as in a
    test; only a role with rights on the table reads it)."""
    return analytics_schema(schema) if has_events_view(conn, schema) else schema


def _schema_exists(conn: psycopg.Connection[Any], schema: str) -> bool:
    row = conn.execute("SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = %s)", (schema,)).fetchone()
    return bool(row and row[0])


def _role_exists(conn: psycopg.Connection[Any], role: str) -> bool:
    row = conn.execute("SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = %s)", (role,)).fetchone()
    return bool(row and row[0])


def _view_query(service: str, schema: str) -> sql.Composed:
    table = sql.Identifier(schema, "events")
    redacted = REDACTED_DATA.get(service)
    columns = [
        sql.SQL(f"{redacted} AS data") if c == "data" and redacted else sql.Identifier("e", c)
        for c in EVENT_COLUMNS
    ]
    select = sql.SQL("SELECT {cols} FROM {table} AS e").format(cols=sql.SQL(", ").join(columns), table=table)
    end = ENDED_STREAMS_ONLY.get(service)
    if end is None:
        return select
    ended = sql.SQL(
        " WHERE EXISTS (SELECT 1 FROM {table} AS ended WHERE ended.stream = e.stream AND ended.type = {end})"
    ).format(table=table, end=sql.Literal(end))
    return select + ended


def _stamp(conn: psycopg.Connection[Any], query: sql.Composed) -> str:
    """What the view's comment says of its definition: a hash of its query."""
    return "arcana analysts' view " + hashlib.sha256(query.as_bytes(conn)).hexdigest()[:16]


def _view_stamp(conn: psycopg.Connection[Any], schema: str) -> str | None:
    row = conn.execute(
        "SELECT obj_description(c.oid, 'pg_class') FROM pg_class c "
        "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s AND c.relname = 'events'",
        (analytics_schema(schema),),
    ).fetchone()
    return row[0] if row else None


def create_events_view(conn: psycopg.Connection[Any], service: str, schema: str) -> bool:
    """Create or replace ``<schema>_analytics.events`` (run as the event table's owner); returns
    whether it exists now (not when ``schema`` has no event table yet). A view already as wanted is
    left alone: replacing it waits for every query on it (an analyst's export) to end."""
    if not _exists(conn, schema, "events"):
        return False
    query = _view_query(service, schema)
    stamp = _stamp(conn, query)
    if _view_stamp(conn, schema) == stamp:
        return True
    target = sql.Identifier(analytics_schema(schema))
    view = sql.Identifier(analytics_schema(schema), "events")
    with conn.transaction():
        conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(target))
        conn.execute(sql.SQL("REVOKE ALL ON SCHEMA {} FROM PUBLIC").format(target))
        conn.execute(
            sql.SQL("CREATE OR REPLACE VIEW {} WITH (security_barrier = true) AS ").format(view) + query
        )
        conn.execute(sql.SQL("COMMENT ON VIEW {} IS {}").format(view, sql.Literal(stamp)))
    return True


def grant_analyst(conn: psycopg.Connection[Any], schema: str, role: str) -> bool:
    """``role`` may read ``schema``'s events through its view only; returns whether the view exists
    (the rights on the table are revoked either way). Nothing happens when ``role`` does not exist.
    Each right is changed only when it is not as wanted: a grant rewrites the catalog row of the
    event table, which the service's every append reads."""
    if not _role_exists(conn, role):
        return False
    r, readable = sql.Identifier(role), analytics_schema(schema)
    if _exists(conn, schema, "events") and _holds(conn, role, schema, "events"):
        conn.execute(sql.SQL("REVOKE ALL ON {} FROM {}").format(sql.Identifier(schema, "events"), r))
    if _schema_exists(conn, schema) and _holds(conn, role, schema):
        conn.execute(sql.SQL("REVOKE ALL ON SCHEMA {} FROM {}").format(sql.Identifier(schema), r))
    if not has_events_view(conn, schema):
        return False
    if not _holds(conn, role, readable):
        conn.execute(sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(sql.Identifier(readable), r))
    if not _holds(conn, role, readable, "events"):
        conn.execute(sql.SQL("GRANT SELECT ON {} TO {}").format(sql.Identifier(readable, "events"), r))
    return True


_ANY_TABLE_RIGHT = "SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER"


def _holds(conn: psycopg.Connection[Any], role: str, schema: str, table: str | None = None) -> bool:
    """Whether ``role`` holds any right on ``schema`` (or on its ``table``)."""
    if table is None:
        query, target = "SELECT has_schema_privilege(%s, %s, 'USAGE, CREATE')", schema
    else:
        query = f"SELECT has_table_privilege(%s, %s, '{_ANY_TABLE_RIGHT}')"
        target = sql.Identifier(schema, table).as_string(conn)
    row = conn.execute(query, (role, target)).fetchone()
    return bool(row and row[0])


def publish_events_views(conn: psycopg.Connection[Any], schemas: Mapping[str, str], role: str) -> list[str]:
    """Each service's view (``schemas``: service -> schema) and ``role``'s grants; returns the
    schemas whose view exists."""
    made = [schema for service, schema in schemas.items() if create_events_view(conn, service, schema)]
    for schema in schemas.values():
        grant_analyst(conn, schema, role)
    return made
