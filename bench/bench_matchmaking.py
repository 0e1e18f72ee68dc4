"""make bench-matchmaking: the pairing pass of services/matchmaking/domain, on one core.

1. Time of one ranked pairing pass over 1,000 and 10,000 waiting tickets (ratings ~ N(1100, 250),
   waited 0..60 s, so windows differ), median of several runs.
2. Queue-to-matched latency under a steady arrival rate: tickets arrive at a fixed rate (uniformly
   within each second) on a simulated clock, a pass runs every second through the same pairing
   code; p50 / p99 of the time from joining to being paired, and the mean rating gap of the pairs.
3. The same pass as the service runs it on PostgreSQL (``MatchmakingService.pair``: read the
   waiting tickets, pair, append TicketPaired x2 + MatchRequested per pair in one transaction) over
   1,000 and 10,000 tickets opened through ``join`` (skip with ``BENCH_DB=0``).
Run: ``.venv/bin/python -m bench.bench_matchmaking`` (``BENCH_SECONDS`` simulated seconds, 600).
"""

from __future__ import annotations

import os
import random
import statistics
import time
from datetime import UTC, datetime, timedelta

from services.matchmaking.domain import Waiting, pair_ranked

T0 = datetime(2026, 11, 30, tzinfo=UTC)
SIM_SECONDS = int(os.environ.get("BENCH_SECONDS", "600"))


def _tickets(n: int, rng: random.Random) -> list[Waiting]:
    return [
        Waiting(
            f"t{i}", f"p{i}", "ranked", int(rng.gauss(1100, 250)), T0 - timedelta(seconds=rng.uniform(0, 60))
        )
        for i in range(n)
    ]


def pass_time(n: int, runs: int = 5) -> tuple[float, int]:
    """Median seconds of one pass over ``n`` waiting tickets, and the pairs it made."""
    tickets = _tickets(n, random.Random(n))
    times, pairs = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        pairs = len(pair_ranked(tickets, T0))
        times.append(time.perf_counter() - start)
    return statistics.median(times), pairs


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def steady_arrivals(rate: int, seconds: int) -> tuple[list[float], list[int], int]:
    """Latencies (s) and gaps of the pairs made, and how many still wait at the end."""
    rng = random.Random(rate)
    queue: list[Waiting] = []
    latencies: list[float] = []
    gaps: list[int] = []
    for second in range(1, seconds + 1):
        base = second - 1
        queue += [
            Waiting(
                f"t{second}-{k}",
                f"p{second}-{k}",
                "ranked",
                int(rng.gauss(1100, 250)),
                T0 + timedelta(seconds=base + rng.random()),
            )
            for k in range(rate)
        ]
        now = T0 + timedelta(seconds=second)
        paired: set[str] = set()
        for pair in pair_ranked(queue, now):
            for t in (pair.first, pair.second):
                latencies.append(t.waited(now))
                paired.add(t.ticket_id)
            gaps.append(pair.gap)
        queue = [t for t in queue if t.ticket_id not in paired]
    return latencies, gaps, len(queue)


def db_pass(url: str, n: int) -> tuple[float, float, int]:
    """(seconds to open ``n`` tickets through ``join``, seconds of one ``pair()``, pairs made)."""
    from libs.config import PROJECT_ROOT
    from libs.db import make_pool, migrate
    from services.matchmaking.service import MatchmakingService

    schema = f"bench_mm_{n}"
    migrate(url, schema, [PROJECT_ROOT / "services" / "matchmaking" / "migrations"])
    pool = make_pool(url, min_size=1, max_size=2)
    try:
        svc = MatchmakingService(pool, schema)
        rng = random.Random(n)
        players = [f"p{i}" for i in range(n)]
        with pool.connection() as conn, conn.cursor() as cur:  # ratings' read model, as consumed
            cur.executemany(
                f"INSERT INTO {schema}.ladder_ratings VALUES (%s, 'arcana', %s, 1)",
                [(p, int(rng.gauss(1100, 250))) for p in players],
            )
        start = time.perf_counter()
        for p in players:
            svc.join(p, "ranked")
        opened = time.perf_counter() - start
        with pool.connection() as conn:  # every client polled a moment ago: none abandoned
            conn.execute(f"UPDATE {schema}.ticket_polls SET last_polled_at = now()")
        start = time.perf_counter()
        result = svc.pair()
        return opened, time.perf_counter() - start, result.pairs
    finally:
        pool.close()


def main() -> None:
    print("ranked pairing pass (one core):")
    for n in (1_000, 10_000):
        seconds, pairs = pass_time(n)
        print(f"  {n:>6} waiting: {seconds * 1000:8.1f} ms per pass, {pairs} pairs")
    print(f"steady arrivals, a pass every second, {SIM_SECONDS} simulated s:")
    for rate in (1, 10, 100):
        lat, gaps, left = steady_arrivals(rate, SIM_SECONDS)
        print(
            f"  {rate:>4}/s: queue-to-matched p50 {_quantile(lat, 0.5):5.2f} s,"
            f" p99 {_quantile(lat, 0.99):5.2f} s,"
            f" mean rating gap {statistics.mean(gaps):6.1f}, {len(lat)} matched, {left} waiting at the end"
        )
    if os.environ.get("BENCH_DB", "1") == "1":
        from bench._stack import database

        print("the service's pass on PostgreSQL (one transaction, 3 appends per pair):")
        with database() as url:
            for n in (1_000, 10_000):
                opened, seconds, pairs = db_pass(url, n)
                per_pair = seconds / pairs * 1000
                print(
                    f"  {n:>6} waiting: pass {seconds:6.2f} s, {pairs} pairs ({per_pair:.2f} ms/pair);"
                    f" opening them took {opened:.1f} s ({n / opened:.0f} joins/s, one client)"
                )


if __name__ == "__main__":
    main()
