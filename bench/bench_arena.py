"""Benchmark of libs/games/arena: complete random games per second (random legal commands for every player)
and decide+evolve steps per second, on one core, for 2, 3 and 4 players.
Run: `.venv/bin/python -m bench.bench_arena [games per size]` (`make bench-arena`)."""

from __future__ import annotations

import random
import sys
import time

from libs.games.arena import decide, evolve, fold, random_bot, start, waits


def play(seed: int, players: int) -> tuple[int, float]:
    """One random game; returns (decide+evolve steps, CPU seconds spent in decide+evolve)."""
    rng = random.Random(seed)
    seats = [{"id": f"p{i}"} for i in range(players)]
    state = fold(start({"match_id": f"m{seed}", "seed": seed, "players": seats}))
    steps, spent = 0, 0.0
    clock = time.process_time
    while not state.ended:
        (wait,) = waits(state)
        command = random_bot(state, wait.player, rng)
        assert command is not None
        t0 = clock()
        for event in decide(state, command):
            state = evolve(state, event)
        spent += clock() - t0
        steps += 1
    return steps, spent


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    print(f"{n} random games per table size (CPU time of one process)")
    for players in (2, 3, 4):
        t0 = time.process_time()
        results = [play(seed, players) for seed in range(n)]
        elapsed = time.process_time() - t0
        steps = sum(s for s, _ in results)
        step_time = sum(t for _, t in results)
        print(
            f"{players} players: {n / elapsed:,.1f} games/s, {steps / n:,.0f} commands a game, "
            f"{steps / step_time:,.0f} decide+evolve steps/s"
        )


if __name__ == "__main__":
    main()
