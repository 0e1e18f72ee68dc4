"""make bench-codec: the one codec (``libs.codec``) on one core: strict decodes of an integration event
per second (``MatchEnded.decode_data``, as a consumer reads it), and a game state's snapshot and
restore per second (``Game.snapshot``/``Game.restore``, through JSON as the snapshots table gives it
back) for the arena and the line at mid-match. When ``msgspec`` is importable, the same decodes by
``msgspec.convert`` (strict) beside them, for the comparison of docs/capacity.md ("The codec").
Run: `.venv/bin/python -m bench.bench_codec` (`make bench-codec`).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from libs.contracts import MatchEnded
from libs.games import Game, Seat, Setup, registry

ENDED: dict[str, Any] = {
    "winner": "a",
    "reason": "hero_killed",
    "match_id": "m1",
    "mode": "ranked",
    "players": ["a", "b"],
    "loser": "b",
    "draw": False,
    "turns": 9,
    "round": 5,
    "bot": None,
    "stats": {"a": {"went_first": True}, "b": {"went_first": False}},
    "game": "arcana",
}
SECONDS = 1.0


def per_second(work: Callable[[], object]) -> float:
    """How many times ``work`` runs in a second: the best of three runs of ``SECONDS`` each."""
    best = 0.0
    for _ in range(3):
        n, start = 0, time.process_time()
        while (spent := time.process_time() - start) < SECONDS:
            for _ in range(100):
                work()
            n += 100
        best = max(best, n / spent)
    return best


def midgame(game: Game, seed: int, steps: int) -> Any:
    """The state of ``game`` after ``steps`` random legal commands (fewer if it ends first)."""
    rng = random.Random(seed)
    seats = tuple(Seat(f"p{i}", tuple(game.starter_deck)) for i in range(2))
    setup = Setup("m1", seed, seats, "2026-12-01")
    state = None
    for e in game.setup(setup):
        state = game.evolve(state, e)
    for _ in range(steps):
        waits = game.waits(state)
        legal = game.legal_commands(state, waits[0].player) if waits else []
        if game.result(state) is not None or not legal:
            break
        for e in game.decide(state, {**rng.choice(legal), "player": waits[0].player}):
            state = game.evolve(state, e)
    return state


def main() -> None:
    registry.load()
    print(f"MatchEnded strict decodes:  {per_second(lambda: MatchEnded.decode_data(ENDED)):>10,.0f}/s")
    states = {name: midgame(registry.get(name), 7, 40) for name in ("arena", "line")}
    for name, state in states.items():
        game = registry.get(name)
        kept = json.loads(json.dumps(game.snapshot(state)))
        print(f"{name} snapshots:            {per_second(lambda g=game, s=state: g.snapshot(s)):>10,.0f}/s")
        print(f"{name} restores:             {per_second(lambda g=game, k=kept: g.restore(k)):>10,.0f}/s")
    try:
        import msgspec
    except ImportError:
        return
    print(f"msgspec MatchEnded:         {per_second(lambda: msgspec.convert(ENDED, MatchEnded)):>10,.0f}/s")
    for name, state in states.items():
        game = registry.get(name)
        kept = json.loads(json.dumps(game.snapshot(state)))
        cls = type(state)
        assert msgspec.convert(kept, cls) == state
        rate = per_second(lambda c=cls, k=kept: msgspec.convert(k, c))
        print(f"msgspec {name} restores:     {rate:>10,.0f}/s")


if __name__ == "__main__":
    main()
