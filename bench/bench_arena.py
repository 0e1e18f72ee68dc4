"""Benchmark of libs/games/arena, for 2, 3 and 4 players.

1. How rounds end between bots: over one match per seed 0..N-1 (the same seeds for each bot, every seat
   played by that bot), the share of rounds decided by elimination (the last one standing) and by the
   deck running out (most life), the rounds' length in turns (mean, p50, p90) and the life lost in a
   round by all players together (a table of n seats needs at least 9 x (n - 1) for an elimination
   round). The bots: `greedy` (one ply, the practice bot before issue 31) and `tactical` (today's).
2. Head to head: the tactical bot against the random and the greedy bot, 2 seats, 16 seeded matches.
3. Speed: complete random games per second (random legal commands for every player) and decide+evolve
   steps per second, on one core.

Run: `.venv/bin/python -m bench.bench_arena [matches per table size, 200] [parts]`, parts a comma list
of greedy, tactical, duels, speed (`make bench-arena`: all four)."""

from __future__ import annotations

import random
import sys
import time

from libs.games.arena import (
    decide,
    evolve,
    fold,
    greedy_bot,
    measure,
    random_bot,
    start,
    tactical_bot,
    waits,
    wins_of_first,
)

SIZES = (2, 3, 4)
BOTS = {"greedy": greedy_bot, "tactical": tactical_bot}
ALL = {**BOTS, "random": random_bot}


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


def round_ends(n: int, names: list[str]) -> None:
    if not names:
        return
    print(f"How rounds end: one match per seed 0..{n - 1}, every seat the same bot")
    print("bot       seats  rounds  elimination  deck out  turns mean  p50  p90  life lost a round (all)")
    for name in names:
        bot = BOTS[name]
        for players in SIZES:
            s = measure(range(n), players, [bot])
            print(
                f"{name:<9} {players:>5}  {s.rounds:>6}  {s.elimination:>10.1%}  {s.deck_out:>8.1%}"
                f"  {s.turns_mean:>10.1f}  {s.turns_p50:>3.0f}  {s.turns_p90:>3.0f}  {s.life_lost_mean:>6.1f}"
            )


def duels(n: int) -> None:
    seeds = range(min(n, 16))
    print(f"Head to head, 2 seats, seeds 0..{len(seeds) - 1}, the first bot seated first")
    for a, b in (("tactical", "random"), ("tactical", "greedy")):
        wins = wins_of_first(seeds, [ALL[a], ALL[b]])
        print(f"{a} against {b}: {wins} of {len(seeds)} matches won")


def speed(n: int) -> None:
    print(f"{n} random games per table size (CPU time of one process)")
    for players in SIZES:
        t0 = time.process_time()
        results = [play(seed, players) for seed in range(n)]
        elapsed = time.process_time() - t0
        steps = sum(s for s, _ in results)
        step_time = sum(t for _, t in results)
        print(
            f"{players} players: {n / elapsed:,.1f} games/s, {steps / n:,.0f} commands a game, "
            f"{steps / step_time:,.0f} decide+evolve steps/s"
        )


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    parts = sys.argv[2].split(",") if len(sys.argv) > 2 else [*BOTS, "duels", "speed"]
    round_ends(n, [p for p in parts if p in BOTS])
    if "duels" in parts:
        duels(n)
    if "speed" in parts:
        speed(n)


if __name__ == "__main__":
    main()
