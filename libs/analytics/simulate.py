"""Bot-against-bot games on the pure rules engine, for balance questions (``arcana simulate``).

Each game deals two random legal decks from the catalog (a seeded generator: the same arguments give
the same games), seats bot A as player ``a`` and bot B as ``b``, and plays to the end through the
engine's own ``decide``/``evolve``, exactly as the match service does. Standard library only.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from libs.games.arcana import CATALOG, decide, evolve, fold, start
from libs.games.arcana.bots import greedy_bot, random_bot
from libs.games.arcana.state import State

BOTS: dict[str, Callable[[State, str, random.Random], dict[str, Any] | None]] = {
    "random": random_bot,
    "greedy": greedy_bot,
}
SIDES = ("a", "b")
MOVE_LIMIT = 5_000  # far above any real game: a guard against a bot that never ends its turn


@dataclass(frozen=True)
class Summary:
    games: int
    bots: tuple[str, str]
    wins: tuple[int, int]
    draws: int
    first_player_wins: int
    turns: int

    def win_rate(self, side: int) -> float:
        return self.wins[side] / self.games

    @property
    def first_player_win_rate(self) -> float:
        return self.first_player_wins / self.games

    @property
    def average_turns(self) -> float:
        return self.turns / self.games

    def to_dict(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "win_rate": [self.win_rate(0), self.win_rate(1)],
            "draw_rate": self.draws / self.games,
            "first_player_win_rate": self.first_player_win_rate,
            "average_turns": self.average_turns,
        }

    def describe(self) -> str:
        a, b = self.bots
        return "\n".join(
            [
                f"{self.games} games, {a} (side a) against {b} (side b)",
                f"side a ({a}) won {self.wins[0]} ({self.win_rate(0):.1%})",
                f"side b ({b}) won {self.wins[1]} ({self.win_rate(1):.1%})",
                f"draws {self.draws} ({self.draws / self.games:.1%})",
                f"first player won {self.first_player_wins} ({self.first_player_win_rate:.1%})",
                f"average length {self.average_turns:.1f} turns",
            ]
        )


def random_deck(rng: random.Random) -> list[str]:
    """20 cards, at most 2 copies of a card and 1 of a legendary."""
    pool = [c.id for c in CATALOG.values() for _ in range(1 if c.rarity == "legendary" else 2)]
    return rng.sample(pool, 20)


def play(seed: int, bots: tuple[str, str], rng: random.Random) -> State:
    """One complete game; returns its final state."""
    setup = {
        "match_id": f"sim-{seed}",
        "seed": seed,
        "players": [{"id": side, "deck": random_deck(rng)} for side in SIDES],
    }
    state = fold(start(setup))
    for _ in range(MOVE_LIMIT):
        if state.phase == "ended":
            return state
        side = _to_act(state)
        command = BOTS[bots[side]](state, SIDES[side], rng)
        if command is None:
            command = {"type": "end_turn", "player": SIDES[side]}
        for event in decide(state, command):
            state = evolve(state, event)
    raise RuntimeError(f"game {seed} did not end within {MOVE_LIMIT} commands")


def _to_act(state: State) -> int:
    """The side whose command comes next: during the mulligan the first not yet decided."""
    if state.phase == "mulligan":
        return 0 if not state.players[0].mulligan_done else 1
    return state.active


def simulate(
    games: int, bots: tuple[str, str], seed: int = 1, on_game: Callable[[], None] | None = None
) -> Summary:
    """Play ``games`` games; ``on_game`` is called after each (progress)."""
    for bot in bots:
        if bot not in BOTS:
            raise ValueError(f"no bot {bot!r} (have: {', '.join(sorted(BOTS))})")
    rng = random.Random(seed)
    wins = [0, 0]
    draws = first_wins = turns = 0
    for n in range(games):
        state = play(seed * 1_000_003 + n, bots, rng)
        turns += state.turn
        if state.winner == "draw":
            draws += 1
        else:
            winner = SIDES.index(str(state.winner))
            wins[winner] += 1
            first_wins += winner == state.first
        if on_game is not None:
            on_game()
    return Summary(games, bots, (wins[0], wins[1]), draws, first_wins, turns)
