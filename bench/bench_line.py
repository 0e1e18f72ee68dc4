"""Benchmark of libs/games/line: whole fights per second on one core (`start`: setup checked, links baked, the
fight resolved into events) and the resolution alone, over random lines of the catalog.
Run: `.venv/bin/python -m bench.bench_line [fights] [repeats]` (`make bench-line`).

Each repeat times the three (the third: fights among 16 lines that meet again and again), one after
the other; the median and the best of the repeats are shown, since a shared machine slows some passes
down (CPU time still grows when other processes share the core's caches)."""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from libs.games.line import CATALOG, start
from libs.games.line.resolution import resolve
from libs.games.line.setup import baked, fight_started

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


def bracket_setups(n: int, lines: int = 16) -> list[dict]:
    """`n` fights among a few lines that meet again and again (a bracket's, a simulation's, players who
    keep their line): what `setup.baked` remembers."""
    rng = random.Random(54321)
    ids = sorted(CATALOG)
    pool = [rng.sample(ids, 5) for _ in range(lines)]
    return [
        {"match_id": f"b{i}", "seed": i, "players": [{"id": "p1", "deck": a}, {"id": "p2", "deck": b}]}
        for i, (a, b) in enumerate(rng.sample(pool, 2) for _ in range(n))
    ]


def rate(seconds: Sequence[float], n: int) -> str:
    """The median and the best of the repeats, as fights per second."""
    median, best = n / statistics.median(seconds), n / min(seconds)
    return (
        f"median {median:,.0f}/s ({1e6 / median:.0f} µs each), best {best:,.0f}/s; "
        f"target {TARGET:,.0f}, ratio {median / TARGET:.2f}"
    )


def timed(run: Callable[[Any], object], items: Sequence[Any]) -> float:
    clock = time.process_time  # CPU time of this process: one core, whatever else the machine runs
    t0 = clock()
    for item in items:
        run(item)
    return clock() - t0


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    fights, bracket = setups(n), bracket_setups(n)
    openings = [fight_started(setup)[1] for setup in fights]
    events = sum(len(start(setup)) for setup in fights[:1000]) / min(n, 1000)
    whole, resolution, again = [], [], []
    for _ in range(repeats):
        baked.cache_clear()  # random lines: each fight's lines are new
        whole.append(timed(start, fights))
        resolution.append(timed(resolve, openings))
        again.append(timed(start, bracket))
    print(f"fights: {n} x {repeats} repeats, {events:.0f} events a fight (CPU time of one process)")
    print(f"whole fights (start): {rate(whole, n)}")
    print(f"resolution only:      {rate(resolution, n)}")
    print(f"16 lines meeting:     {rate(again, n)}")


if __name__ == "__main__":
    main()
