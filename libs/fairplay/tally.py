"""What one UTC day has counted so far: counting matches per pair of players, paying matches per
player. A fold of the day's verdicts (``record``), so whoever keeps it can rebuild it from the
published ``MatchEnded`` events."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Protocol


class Paid(Protocol):
    """What a tally reads of a verdict (``verdict.Verdict``): whether it paid coins, and XP."""

    @property
    def coins(self) -> bool: ...

    @property
    def xp(self) -> bool: ...


def pair_key(a: str, b: str) -> str:
    """The same key for the two players in either order."""
    return "|".join(sorted((a, b)))


@dataclass(frozen=True)
class DayTally:
    """``pairs``: counting matches per ``pair_key``; ``coins``: paying matches per player."""

    pairs: Mapping[str, int] = field(default_factory=dict)
    coins: Mapping[str, int] = field(default_factory=dict)

    def pair_matches(self, pair: str) -> int:
        return self.pairs.get(pair, 0)

    def coin_matches(self, player: str) -> int:
        return self.coins.get(player, 0)


def record(day: DayTally, players: tuple[str, ...], verdicts: Mapping[str, Paid]) -> DayTally:
    """The day after one ended match of ``players`` with ``verdicts``: each pair of them (one, or
    each pair of a larger table) counts one more match when it paid either of the two coins or XP
    (a ranked concede before turn 4 costs the leaver rating but uses none of the pair's matches),
    each player paid coins one more paying match."""
    pairs, coins = dict(day.pairs), dict(day.coins)
    for a, b in combinations(players, 2):
        if any(v.coins or v.xp for v in (verdicts.get(a), verdicts.get(b)) if v is not None):
            key = pair_key(a, b)
            pairs[key] = pairs.get(key, 0) + 1
    for p, v in verdicts.items():
        if v.coins:
            coins[p] = coins.get(p, 0) + 1
    return DayTally(pairs, coins)
