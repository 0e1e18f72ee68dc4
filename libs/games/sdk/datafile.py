"""Reading a data file of the rules (data/cards.json, data/arcana.json): JSON, validated, keyed by id."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


def load_table(
    path: Path, what: str, validate: Callable[[Any], list[str]], make: Callable[..., T]
) -> dict[str, T]:
    """`make(**row)` for each row of the JSON list in `path`, keyed by the row's `id`, once `validate`
    finds no problem with the whole content.

    Raises ValueError: "invalid {what} {path}: " and every problem `validate` found (json.JSONDecodeError,
    a ValueError too, for a file that is not JSON); OSError for a file that cannot be read.
    """
    rows = json.loads(path.read_text(encoding="utf-8"))
    problems = validate(rows)
    if problems:
        raise ValueError(f"invalid {what} {path}: " + "; ".join(problems))
    return {row["id"]: make(**row) for row in rows}


def rows_problems(
    rows: Any, size: int, fields: tuple[str, ...], row_problems: Callable[[dict[str, Any]], list[str]]
) -> list[str]:
    """What is wrong with a table of cards: not a list of `size` objects each with exactly `fields`, a
    duplicate id, and each row's own `row_problems` (prefixed by its id). Empty when all is well."""
    if not isinstance(rows, list):
        return ["the catalog is not a list"]
    problems: list[str] = []
    if len(rows) != size:
        problems.append(f"{len(rows)} cards, expected {size}")
    seen: set[Any] = set()
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or set(row) != set(fields):
            problems.append(f"card #{i}: fields must be exactly {', '.join(fields)}")
            continue
        problems += [f"{row['id']}: {p}" for p in row_problems(row)]
        if row["id"] in seen:
            problems.append(f"{row['id']}: duplicate id")
        seen.add(row["id"])
    return problems
