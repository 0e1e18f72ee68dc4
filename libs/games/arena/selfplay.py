"""Bots playing whole matches against each other, and how their rounds ended: by elimination (the last
one standing) or by the deck running out (most life), and after how many turns. `make bench-arena`
prints it; the bot tests compare bots with it on the same seeds."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .constants import Ev
from .engine import decide, evolve, fold, start
from .state import State
from .views import waits

Bot = Callable[[State, str, random.Random], dict[str, Any] | None]
ELIMINATION = "last_standing"
DECK_OUT = "most_life"


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """One round: how it was decided (`last_standing` or `most_life`), whether it was replayed (a tie),
    how many turns it lasted and how much life its players lost in all."""

    how: str
    replayed: bool
    turns: int
    life_lost: int = 0


@dataclass(frozen=True, slots=True)
class Summary:
    """Rounds of many matches: how many, the share decided by elimination and by the deck running out
    (replayed rounds count by their how), their length in turns, the life lost in a round by all its
    players together (mean)."""

    rounds: int
    elimination: float
    deck_out: float
    turns_mean: float
    turns_p50: float
    turns_p90: float
    life_lost_mean: float


@dataclass(frozen=True, slots=True)
class Played:
    """A match played by bots: its rounds in order and the winner's seat."""

    rounds: list[RoundEnd]
    winner: int


def play_match(seed: int, players: int, bots: Sequence[Bot]) -> Played:
    """A whole match of `players` seats, seat i (player `p<i>`) played by `bots[i % len(bots)]`, the
    match and the bots' tie-breaks both drawn from `seed`."""
    rng = random.Random(seed)
    pids = [f"p{i}" for i in range(players)]
    play = {pid: bots[i % len(bots)] for i, pid in enumerate(pids)}
    state = fold(start({"match_id": f"m{seed}", "seed": seed, "players": [{"id": p} for p in pids]}))
    rounds: list[RoundEnd] = []
    tally = Tally()
    while not state.ended:
        (wait,) = waits(state)
        command = play[wait.player](state, wait.player, rng)
        if command is None:
            raise RuntimeError(f"the bot of {wait.player} has no move while the match waits for it")
        for event in decide(state, command):
            ended = tally.count(event)
            if ended is not None:
                rounds.append(ended)
            state = evolve(state, event)
    return Played(rounds, state.seat(str(state.winner)))


class Tally:
    """Turns started and life lost in the current round, counted event by event."""

    def __init__(self) -> None:
        self.turns = 0
        self.life_lost = 0

    def count(self, event: dict[str, Any]) -> RoundEnd | None:
        """Counts `event`; returns the round's end when `event` ends one (and starts counting anew)."""
        kind = event["type"]
        if kind == Ev.TURN_STARTED:
            self.turns += 1
        elif kind == Ev.LIFE_LOST:
            self.life_lost += event["amount"]
        elif kind in (Ev.ROUND_WON, Ev.ROUND_REPLAYED):
            end = RoundEnd(event["how"], kind == Ev.ROUND_REPLAYED, self.turns, self.life_lost)
            self.turns = self.life_lost = 0
            return end
        return None


def summarise(rounds: Sequence[RoundEnd]) -> Summary:
    """The shares and turn figures of `rounds` (at least one)."""
    n = len(rounds)
    turns = sorted(r.turns for r in rounds)
    by_elimination = sum(r.how == ELIMINATION for r in rounds)
    return Summary(
        rounds=n,
        elimination=by_elimination / n,
        deck_out=(n - by_elimination) / n,
        turns_mean=statistics.fmean(turns),
        turns_p50=_percentile(turns, 0.5),
        turns_p90=_percentile(turns, 0.9),
        life_lost_mean=statistics.fmean(r.life_lost for r in rounds),
    )


def _percentile(ordered: Sequence[int], q: float) -> float:
    """The nearest-rank percentile of sorted values."""
    rank = max(1, math.ceil(q * len(ordered)))
    return float(ordered[rank - 1])


def measure(seeds: range, players: int, bots: Sequence[Bot]) -> Summary:
    """The summary of one match per seed at a table of `players`."""
    return summarise([r for seed in seeds for r in play_match(seed, players, bots).rounds])


def wins_of_first(seeds: range, bots: Sequence[Bot]) -> int:
    """How many 2-seat matches, one per seed, `bots[0]` (seated first) wins against `bots[1]`."""
    return sum(play_match(seed, 2, bots).winner == 0 for seed in seeds)
