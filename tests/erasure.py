"""The erasure check (issue 34, point 6), shared by the integration and end-to-end tests: where in a
database a piece of personal data (a username, a password hash, a display name) can still be
found. Every table and view of every schema but PostgreSQL's own is searched, whole rows as text
(every column, whatever its type: JSON, arrays, composite values) and byte columns as UTF-8."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import sql

_RELATIONS = """
    SELECT c.table_schema, c.table_name, array_agg(c.column_name::text) FILTER (WHERE c.data_type = 'bytea')
    FROM information_schema.columns c
    WHERE c.table_schema NOT IN ('pg_catalog', 'information_schema') AND c.table_schema NOT LIKE 'pg\\_%%'
    GROUP BY c.table_schema, c.table_name
    ORDER BY 1, 2
"""


def relations(conn: psycopg.Connection[Any]) -> list[tuple[str, str, list[str]]]:
    """Every (schema, table or view, its byte columns) of the database."""
    return [
        (schema, name, list(byte_columns or ())) for schema, name, byte_columns in conn.execute(_RELATIONS)
    ]


def places_holding(conn: psycopg.Connection[Any], needle: str) -> list[str]:
    """``schema.table`` of every table or view with a row that holds ``needle`` (as text)."""
    found = []
    for schema, name, byte_columns in relations(conn):
        table = sql.Identifier(schema, name)
        as_bytes = [
            sql.SQL("position(convert_to(%(n)s, 'UTF8') IN coalesce({}, ''::bytea)) > 0").format(
                sql.Identifier(column)
            )
            for column in byte_columns
        ]
        condition = sql.SQL(" OR ").join([sql.SQL("strpos(t::text, %(n)s) > 0"), *as_bytes])
        query = sql.SQL("SELECT EXISTS (SELECT 1 FROM {} t WHERE {})").format(table, condition)
        row = conn.execute(query, {"n": needle}).fetchone()
        if row and row[0]:
            found.append(f"{schema}.{name}")
    return found
