"""make bench-footprint: what one live match holds in the memory of a process that serves it, and
what its events weigh, measured on the domain code alone (no server): docs/scaling.md.

``BENCH_FOOTPRINT_M`` Arcana matches (default 300) are played by the game's bots, decided and folded
as the service does (``domain.decide_for``, ``domain.fold_match``), and stopped after ``COMMANDS``
commands each (a match in its middle: about the length of one that is being played). Measured with
``tracemalloc``: the bytes that keeping every folded match costs (what the web's and the waits'
fold caches, match's ``StreamCache``, hold per match), and the events' JSON (type and data) per event and per
match. Run: ``.venv/bin/python -m bench.bench_footprint``.
"""

from __future__ import annotations

import gc
import json
import random
import statistics
import tracemalloc
import uuid
from datetime import UTC, datetime

from libs.config import env_int
from libs.games.arcana import STARTER_DECK
from services.match import domain
from services.match.domain import Match, Row

M = env_int("BENCH_FOOTPRINT_M", 300)
COMMANDS = (10, 40, 80)


def _played(seed: int, commands: int) -> list[Row]:
    """The stored rows of one match after ``commands`` bot commands (fewer if it ended)."""
    rng = random.Random(seed)
    players = [{"id": str(uuid.uuid4()), "deck": list(STARTER_DECK)} for _ in range(2)]
    at = datetime(2026, 12, 3, tzinfo=UTC)
    rows: list[Row] = []

    def store(events: list[tuple[str, dict]]) -> Match:
        rows.extend((kind, data, at, len(rows) + 1) for kind, data in events)
        return domain.fold_match(rows)

    m = store(domain.open_match(str(uuid.uuid4()), "casual", players, seed, "2026-12-03").events)
    game = domain.game_of(m)
    for _ in range(commands):
        if m.ended:
            break
        player = domain.awaiting(m)[0]
        command = game.bot(m.rules, player, rng)
        assert command is not None
        m = store(domain.decide_for(m, player, {k: v for k, v in command.items() if k != "player"}).events)
    return rows


def _decoded(rows: list[Row]) -> list[Row]:
    """The rows as a load decodes them from PostgreSQL: objects of their own, shared with nothing."""
    return [(kind, json.loads(json.dumps(data)), at, version) for kind, data, at, version in rows]


def _held(streams: list[list[Row]]) -> float:
    """Bytes per match that keeping the folded matches costs: each folded from freshly decoded rows,
    which are dropped after the fold (what a fold cache keeps is the match and what it still
    references of them)."""
    gc.collect()
    tracemalloc.start()
    start = tracemalloc.get_traced_memory()[0]
    kept = [domain.fold_match(_decoded(rows)) for rows in streams]
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - start
    tracemalloc.stop()
    assert len(kept) == len(streams)
    return held / len(streams)


def main() -> None:
    print(f"bench-footprint: {M} Arcana matches of bots, each stopped after n commands")
    print("   n commands  events/match  event JSON bytes (mean)  JSON bytes/match  folded match held (bytes)")
    for n in COMMANDS:
        streams = [_played(seed, n) for seed in range(M)]
        sizes = [len(json.dumps([kind, data])) for rows in streams for kind, data, _, _ in rows]
        per_match = sum(sizes) / M
        events = statistics.mean(len(rows) for rows in streams)
        print(
            f"  {n:>11} {events:>13.1f} {statistics.mean(sizes):>24.0f} {per_match:>17,.0f}"
            f" {_held(streams):>27,.0f}"
        )


if __name__ == "__main__":
    main()
