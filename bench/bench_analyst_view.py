"""What the analysts' view of match (``libs.db.analyst``: a match only once it has ended) costs an
export: ``arcana export --service match --since 2000-01-01`` through the view, then from the event
table (the view dropped), on ``BENCH_VIEW_STREAMS`` match streams (default 2,000) of 100 events,
every other one ended, in a throwaway PostgreSQL (``BENCH_DATABASE_URL`` when set). Prints the
query plan of each and the events exported per second.
Run: `.venv/bin/python -m bench.bench_analyst_view`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import psycopg
from psycopg import sql

from bench._stack import database
from libs.config import PROJECT_ROOT, env_int
from libs.db import migrate
from libs.db.analyst import analytics_schema, publish_events_views

STREAMS = env_int("BENCH_VIEW_STREAMS", 2000)
SCHEMA = "bench_view"
FILL = """
INSERT INTO {events} (position, event_id, stream, version, type, occurred_at, data)
SELECT nextval({sequence}), gen_random_uuid(), 'match-' || s, v,
       CASE WHEN v = 100 AND s %% 2 = 0 THEN 'MatchEnded' ELSE 'CardPlayed' END,
       now() + make_interval(secs => v), jsonb_build_object('n', v, 'pad', repeat('x', 200))
FROM generate_series(1, %s) s, generate_series(1, 100) v
"""


def _fill(url: str) -> None:
    migrate(url, SCHEMA)
    with psycopg.connect(url, autocommit=True) as conn:
        events = sql.Identifier(SCHEMA, "events")
        conn.execute(
            sql.SQL(FILL).format(events=events, sequence=sql.Literal(f"{SCHEMA}.events_position_seq")),
            (STREAMS,),
        )
        conn.execute(sql.SQL("ANALYZE {}").format(events))
        publish_events_views(conn, {"match": SCHEMA}, "arcana_analyst")


def _plan(url: str, schema: str) -> str:
    query = sql.SQL("EXPLAIN SELECT * FROM {} ORDER BY occurred_at, position").format(
        sql.Identifier(schema, "events")
    )
    with psycopg.connect(url) as conn:
        return "\n  ".join(row[0] for row in conn.execute(query).fetchall()[:5])


def _export(url: str) -> tuple[int, float]:
    env = {**os.environ, "DATABASE_URL": url, "ARCANA_MATCH_SCHEMA": SCHEMA}
    argv = [
        sys.executable,
        "-m",
        "services.cli",
        "export",
        "--service",
        "match",
        "--quiet",
        "--since",
        "2000-01-01",
    ]
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=PROJECT_ROOT, capture_output=True, text=True, check=True)
    return len(done.stdout.splitlines()), time.perf_counter() - start


def main() -> None:
    with database() as url:
        _fill(url)
        print(f"{STREAMS} match streams of 100 events, every other one ended")
        print(f"through the view:\n  {_plan(url, analytics_schema(SCHEMA))}")
        n, seconds = _export(url)
        print(f"  exported {n} events in {seconds:.1f} s: {n / seconds:,.0f} events/s")
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(analytics_schema(SCHEMA))))
        print(f"from the table:\n  {_plan(url, SCHEMA)}")
        n, seconds = _export(url)
        print(f"  exported {n} events in {seconds:.1f} s: {n / seconds:,.0f} events/s")


if __name__ == "__main__":
    main()
