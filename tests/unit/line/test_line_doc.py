"""docs/line.md carries the current catalog, generated from the data file."""

from __future__ import annotations

from libs.config import PROJECT_ROOT
from libs.games.line import CATALOG
from libs.games.line.doc import catalog_table, with_table


def test_the_documented_catalog_is_current() -> None:
    document = (PROJECT_ROOT / "docs" / "line.md").read_text(encoding="utf-8")
    assert with_table(document) == document, "run `make docs-line`"
    assert all(f"`{card_id}`" in catalog_table() for card_id in CATALOG)
