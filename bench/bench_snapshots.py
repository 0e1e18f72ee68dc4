"""make bench-snapshots: the cold load of a match (a fresh cache: after a restart) with and without
its snapshot, per match and in the sweep's batch load, for Arcana streams of typical length.

Set-up (not measured): ``BENCH_SNAPSHOTS_M`` matches (default 100) played bot against bot to the end
through ``MatchRepository.append`` (so a snapshot is stored every ``SNAPSHOT_EVERY`` versions, as
in the service), in one schema of a throwaway PostgreSQL (``BENCH_DATABASE_URL`` when set). Then,
``ROUNDS`` times, each way in turn: every match loaded alone by a repository with an empty cache
(``MatchRepository.load``: the snapshot, if taken, and the tail), and all of them by one batch load
of the sweep (``BatchTicker._load``: one query for the snapshots, one for the tails). Without
snapshots: the same code with the snapshot read answering "none" (the whole stream folded). The
best round of each is printed: milliseconds per match (wall, and the loading process's CPU:
decoding and folding), and events folded per match.
Run: `.venv/bin/python -m bench.bench_snapshots` (`make bench-snapshots`).
"""

from __future__ import annotations

import dataclasses
import json
import random
import statistics
import time
import uuid
from collections.abc import Callable
from typing import Any

from psycopg_pool import ConnectionPool

from bench._stack import database
from libs.config import PROJECT_ROOT, env_int
from libs.db import make_pool, migrate
from libs.eventstore import StreamCache
from libs.games.arcana import STARTER_DECK
from services.match import domain, repository
from services.match.repository import MatchRepository, stream_of
from services.match.scheduling import Dispatcher
from services.match.usecases.batch_tick import BatchTicker

M = env_int("BENCH_SNAPSHOTS_M", 100)
ROUNDS = 6
SCHEMA = "bench_snapshots"


def play(matches: MatchRepository, seed: int) -> str:
    """One Arcana match played to its end by greedy bots, stored command by command."""
    rng = random.Random(seed)
    match_id = str(uuid.uuid4())
    players = [{"id": str(uuid.uuid4()), "deck": list(STARTER_DECK)} for _ in range(2)]
    opening = domain.open_match(match_id, "casual", players, seed, "2026-12-01")
    m = matches.append(None, match_id, opening, None).after
    game = domain.game_of(m)
    while not m.ended:
        player = domain.awaiting(m)[0]
        command = game.bot(m.rules, player, rng)
        assert command is not None
        decision = domain.decide_for(m, player, {k: v for k, v in command.items() if k != "player"})
        m = matches.append(m, match_id, decision, None).after
    return match_id


def cold(pool: ConnectionPool, snapshots: bool) -> MatchRepository:
    """A repository with an empty cache (a restarted process), reading snapshots or not."""
    matches = MatchRepository(pool, SCHEMA, StreamCache())
    if not snapshots:
        matches.fold = dataclasses.replace(matches.fold, snapshots=None)
    return matches


def timed(run: Callable[[], None]) -> tuple[float, float]:
    """One run of ``run``: wall seconds and this process's CPU seconds (decoding and folding)."""
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - wall, time.process_time() - cpu


def folded(matches: MatchRepository, match_ids: list[str], snapshots: bool) -> float:
    """Events a cold load folds per match (the tail after the snapshot, or the whole stream)."""
    counts = []
    for match_id in match_ids:
        length = matches.events.version(stream_of(match_id))
        kept = matches.events.load_snapshot(stream_of(match_id)) if snapshots else None
        counts.append(length - (kept[0] if kept else 0))
    return statistics.mean(counts)


def writing_cost(matches: MatchRepository, match_ids: list[str]) -> tuple[float, float]:
    """What a snapshot costs the append that stores it: its size (kB of JSON) and the time to make
    it (``snapshot_match`` and the JSON text; ms), on the matches as they ended."""
    sizes, spent = [], 0.0
    for match_id in match_ids:
        m = matches.load(match_id)
        assert m is not None
        t0 = time.perf_counter()
        text = json.dumps(domain.snapshot_match(m))
        spent += time.perf_counter() - t0
        sizes.append(len(text) / 1000)
    return statistics.mean(sizes), spent / len(match_ids) * 1000


def main() -> None:
    with database() as url:
        migrate(url, SCHEMA, [PROJECT_ROOT / "services" / "match" / "migrations"])
        pool = make_pool(url, min_size=1, max_size=2)
        try:
            writer = MatchRepository(pool, SCHEMA)
            t0 = time.perf_counter()
            match_ids = [play(writer, seed) for seed in range(M)]
            lengths = [writer.events.version(stream_of(i)) for i in match_ids]
            print(
                f"{M} Arcana matches played to the end in {time.perf_counter() - t0:.1f} s; "
                f"events per stream: median {statistics.median(lengths):.0f}, "
                f"min {min(lengths)}, max {max(lengths)}; "
                f"a snapshot every {repository.SNAPSHOT_EVERY} versions"
            )
            size, encode = writing_cost(writer, match_ids)
            print(f"a snapshot: {size:.1f} kB of JSON, made in {encode:.2f} ms (the append that stores it)")
            dispatcher: Any = Dispatcher.__new__(Dispatcher)  # never called: the batch load only
            runs: dict[tuple[bool, str], list[tuple[float, float]]] = {}
            for r in range(ROUNDS):  # both ways in turn, so that a busy moment of the machine hits both
                for snapshots in (r % 2 == 0, r % 2 == 1):

                    def alone(s: bool = snapshots) -> None:
                        for match_id in match_ids:
                            cold(pool, s).load(match_id)

                    def batch(s: bool = snapshots) -> None:
                        BatchTicker(cold(pool, s), dispatcher)._load(match_ids)

                    runs.setdefault((snapshots, "alone"), []).append(timed(alone))
                    runs.setdefault((snapshots, "batch"), []).append(timed(batch))
            print(f"best of {ROUNDS} rounds, per match, in ms: wall (CPU of the loading process)")
            print(f"{'':16}{'loaded alone':>18}{'in the batch load':>20}{'events folded':>16}")
            for snapshots in (False, True):
                cells = []
                for how in ("alone", "batch"):
                    wall = min(w for w, _ in runs[(snapshots, how)]) / M * 1000
                    cpu = min(c for _, c in runs[(snapshots, how)]) / M * 1000
                    cells.append(f"{wall:.2f} ({cpu:.2f})")
                label = "with snapshots" if snapshots else "without"
                events = folded(writer, match_ids, snapshots)
                print(f"{label:16}{cells[0]:>18}{cells[1]:>20}{events:>16.1f}")
        finally:
            pool.close()


if __name__ == "__main__":
    main()
