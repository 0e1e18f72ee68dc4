"""The browser tests' fixtures, imported by their modules: ``shots`` (the folder ``make screenshots``
names in ``ARCANA_SCREENSHOTS``, else None) and ``browsers`` (every Chromium a test opens, closed at its
end, the test failing when a page logged an uncaught error)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.chrome import page_errors


@pytest.fixture
def shots() -> Path | None:
    folder = os.environ.get("ARCANA_SCREENSHOTS")
    if not folder:
        return None
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def browsers() -> Iterator[list[Any]]:
    opened: list[Any] = []
    yield opened
    for driver in opened:
        errors = page_errors(driver)
        driver.quit()
        assert not errors, f"the page logged errors: {errors}"
