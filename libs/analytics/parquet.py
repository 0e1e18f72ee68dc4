"""Exported events as one Parquet file (DuckDB writes it), for analysts' dataframes and engines.

Columns: the export's fields with their types (``occurred_at`` a UTC timestamp, ``data`` JSON).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

_COLUMNS = {
    "service": "VARCHAR",
    "event_id": "UUID",
    "stream": "VARCHAR",
    "version": "INTEGER",
    "position": "BIGINT",
    "type": "VARCHAR",
    "schema_version": "SMALLINT",
    "occurred_at": "TIMESTAMPTZ",
    "correlation_id": "UUID",
    "causation_id": "UUID",
    "data": "JSON",
}


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def write_parquet(rows: Iterable[dict[str, Any]], path: Path) -> int:
    """Write ``rows`` (export dicts) to ``path``; return how many. The rows go through a temporary
    JSON Lines file so that memory stays bounded whatever the log's length."""
    import duckdb

    written = 0
    with tempfile.TemporaryDirectory(prefix="arcana-export-") as folder:
        staged = Path(folder) / "events.jsonl"
        with staged.open("w") as out:
            for event in rows:
                out.write(json.dumps(event, sort_keys=True) + "\n")
                written += 1
        columns = "{" + ", ".join(f"{_literal(k)}: {_literal(v)}" for k, v in _COLUMNS.items()) + "}"
        with duckdb.connect() as db:
            db.execute("SET TimeZone = 'UTC'")
            db.execute(
                f"COPY (SELECT * FROM read_json({_literal(str(staged))}, format = 'newline_delimited', "
                f"columns = {columns})) TO {_literal(str(path))} (FORMAT parquet)"
            )
    return written
