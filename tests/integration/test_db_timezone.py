"""Every pooled connection runs in UTC, even on a server (or URL) whose default time zone is not:
a ``::date`` of a timestamptz, and a timestamp read back, are then UTC days and times."""

from __future__ import annotations

from urllib.parse import quote

from libs.db import make_pool
from libs.web.context import lazy_pool


def test_pooled_sessions_are_pinned_to_utc(postgres_url: str) -> None:
    sep = "&" if "?" in postgres_url else "?"
    elsewhere = f"{postgres_url}{sep}options={quote('-c TimeZone=America/New_York')}"
    web = lazy_pool(elsewhere, max_size=1)
    web.open(wait=True, timeout=30)
    worker = make_pool(elsewhere, max_size=1)
    try:
        for pool in (web, worker):
            with pool.connection() as conn:
                zone, day = conn.execute(
                    "SELECT current_setting('TimeZone'), '2026-01-03 02:30+00'::timestamptz::date::text"
                ).fetchone()  # type: ignore[misc]
                assert (zone, day) == ("UTC", "2026-01-03")
    finally:
        web.close()
        worker.close()
