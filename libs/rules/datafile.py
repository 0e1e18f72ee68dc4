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
