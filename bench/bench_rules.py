"""Benchmark of libs/games/arcana: complete random-vs-random games per second and decide+evolve steps per
second, on one core. Run: `.venv/bin/python bench/bench_rules.py [games]`."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from libs.analytics.simulate import random_deck
from libs.games.arcana import decide, evolve, fold, start
from libs.games.arcana.bots import random_bot

GAMES_TARGET = 200.0
STEPS_TARGET = 20_000.0


def setups(n: int) -> list[dict]:
    rng = random.Random(12345)
    return [
        {
            "match_id": f"m{i}",
            "seed": i,
            "players": [{"id": "p1", "deck": random_deck(rng)}, {"id": "p2", "deck": random_deck(rng)}],
        }
        for i in range(n)
    ]


def play(setup: dict, rng: random.Random) -> tuple[int, float]:
    """One full random game; returns (decide+evolve steps, seconds spent in decide+evolve)."""
    state = fold(start(setup))
    steps = 0
    spent = 0.0
    clock = time.perf_counter
    while state.phase != "ended":
        if state.phase == "mulligan":
            pid = state.pids[0] if not state.players[0].mulligan_done else state.pids[1]
        else:
            pid = state.pids[state.active]
        command = random_bot(state, pid, rng)
        assert command is not None
        t0 = clock()
        for event in decide(state, command):
            state = evolve(state, event)
        spent += clock() - t0
        steps += 1
    return steps, spent


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    games = setups(n)
    rng = random.Random(7)
    t0 = time.perf_counter()
    steps = 0
    step_time = 0.0
    for setup in games:
        s, spent = play(setup, rng)
        steps += s
        step_time += spent
    elapsed = time.perf_counter() - t0
    games_per_s = n / elapsed
    steps_per_s = steps / step_time
    print(f"games: {n} in {elapsed:.2f} s, {steps} decide+evolve steps ({steps / n:.0f} per game)")
    print(
        f"games/s: {games_per_s:,.0f}  (target {GAMES_TARGET:,.0f}, ratio {games_per_s / GAMES_TARGET:.2f})"
    )
    print(
        f"steps/s: {steps_per_s:,.0f}  (target {STEPS_TARGET:,.0f}, ratio {steps_per_s / STEPS_TARGET:.2f})"
    )


if __name__ == "__main__":
    main()
