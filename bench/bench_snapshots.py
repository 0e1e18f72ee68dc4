"""make bench-snapshots: the cold load of a match (a fresh cache: after a restart) with and without
its snapshot, per match and in the sweep's batch load, for Arcana streams of typical length.

Set-up (not measured): ``BENCH_SNAPSHOTS_M`` matches (default 100) played bot against bot to the end
through ``MatchRepository.append`` (so a snapshot is stored every ``SNAPSHOT_EVERY`` versions, as
in the service), in one schema of a throwaway PostgreSQL (``BENCH_DATABASE_URL`` when set). Then,
``ROUNDS`` times, each way: every match loaded alone by a repository with an empty cache
(``MatchRepository.load``: the snapshot, if taken, and the tail), and all of them by one batch load
of the sweep (``BatchTicker._load``: one query for the snapshots, one for the tails). Without
snapshots: the same code with the snapshot read answering "none" (the whole stream folded). The
best round of each is printed: milliseconds per match, and events folded per match.
Run: `.venv/bin/python -m bench.bench_snapshots` (`make bench-snapshots`).
"""

from __future__ import annotations

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
from libs.rules import STARTER_DECK
from services.match import domain, repository
from services.match.repository import MatchCache, MatchRepository, stream_of
from services.match.scheduling import Dispatcher
from services.match.usecases.batch_tick import BatchTicker

M = env_int("BENCH_SNAPSHOTS_M", 100)
ROUNDS = 3
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
    matches = MatchRepository(pool, SCHEMA, MatchCache())
    if not snapshots:
        matches.snapshot = lambda *_: None  # type: ignore[method-assign]
        matches.snapshots = lambda *_: {}  # type: ignore[method-assign]
    return matches


def best(run: Callable[[], None]) -> float:
    """The best of ``ROUNDS`` runs, in seconds."""
    times = []
    for _ in range(ROUNDS):
        t0 = time.perf_counter()
        run()
        times.append(time.perf_counter() - t0)
    return min(times)


def folded(matches: MatchRepository, match_ids: list[str], snapshots: bool) -> float:
    """Events a cold load folds per match (the tail after the snapshot, or the whole stream)."""
    counts = []
    for match_id in match_ids:
        length = matches.events.version(stream_of(match_id))
        kept = matches.events.load_snapshot(stream_of(match_id)) if snapshots else None
        counts.append(length - (kept[0] if kept else 0))
    return statistics.mean(counts)


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
            dispatcher: Any = Dispatcher.__new__(Dispatcher)  # never called: the batch load only
            print(f"{'':18}{'per match (ms)':>16}{'batch of all (ms/match)':>26}{'events folded':>16}")
            for snapshots in (False, True):

                def alone_loads(s: bool = snapshots) -> None:
                    for match_id in match_ids:
                        cold(pool, s).load(match_id)

                def batch_load(s: bool = snapshots) -> None:
                    BatchTicker(cold(pool, s), dispatcher)._load(match_ids)

                alone, batch = best(alone_loads), best(batch_load)
                label = "with snapshots" if snapshots else "without"
                events = folded(writer, match_ids, snapshots)
                print(f"{label:18}{alone / M * 1000:>16.2f}{batch / M * 1000:>26.2f}{events:>16.1f}")
        finally:
            pool.close()


if __name__ == "__main__":
    main()
