"""Benchmark of libs/line: whole fights per second on one core (`start`: setup checked, links baked, the
fight resolved into events) and the resolution alone, over random lines of the catalog.
Run: `.venv/bin/python -m bench.bench_line [fights]` (`make bench-line`)."""

from __future__ import annotations

import random
import sys
import time

from libs.line import CATALOG, start
from libs.line.resolution import resolve
from libs.line.setup import fight_started

TARGET = 20_000.0  # fights per second


def setups(n: int) -> list[dict]:
    rng = random.Random(12345)
    ids = sorted(CATALOG)
    return [
        {
            "match_id": f"m{i}",
            "seed": i,
            "players": [{"id": "p1", "deck": rng.sample(ids, 5)}, {"id": "p2", "deck": rng.sample(ids, 5)}],
        }
        for i in range(n)
    ]


def rate(n: int, seconds: float) -> str:
    per_s = n / seconds
    return f"{per_s:,.0f}/s ({1e6 / per_s:.0f} µs each; target {TARGET:,.0f}, ratio {per_s / TARGET:.2f})"


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    fights = setups(n)
    clock = time.process_time  # CPU time of this process: one core, whatever else the machine runs
    events = 0
    t0 = clock()
    for setup in fights:
        events += len(start(setup))
    whole = clock() - t0
    openings = [fight_started(setup)[1] for setup in fights]
    t0 = clock()
    for opening in openings:
        resolve(opening)
    resolution = clock() - t0
    print(f"fights: {n}, {events / n:.0f} events a fight (CPU time of one process)")
    print(f"whole fights (start): {rate(n, whole)}")
    print(f"resolution only:      {rate(n, resolution)}")


if __name__ == "__main__":
    main()
