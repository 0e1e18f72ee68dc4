"""What an ended match pays a player whose verdict lets it pay (``verdict.coins``, ``libs.fairplay``),
by game, mode and place: the match rewards table (services/economy/README.md, "Credits").

The verdict decides whether a player is paid at all (mode, turns, repeat opponents, the daily limit
of paying matches shared by every game); this table only says how much, and in which currency.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .values import MATCH_LOSS_COINS, MATCH_WIN_COINS

LINE_WIN_SHARDS: Final = 1_500  # casual and ranked
LINE_RANKED_LOSS_SHARDS: Final = 200
ARENA_WIN_COINS: Final = MATCH_WIN_COINS  # the first placement group
ARENA_PLACE_COINS: Final = MATCH_LOSS_COINS  # every other place


@dataclass(frozen=True)
class Reward:
    currency: str  # "coins" or "shards"
    amount: int


def match_reward(game: str, mode: str, place: int, groups: int) -> Reward | None:
    """The reward of the player in placement group ``place`` (0: the best) of ``groups``; one group
    is a draw (nobody won). None: the game or mode pays nothing to that place."""
    won = place == 0 and groups > 1
    if game == "line":
        if won and mode in ("casual", "ranked"):
            return Reward("shards", LINE_WIN_SHARDS)
        return Reward("shards", LINE_RANKED_LOSS_SHARDS) if mode == "ranked" and not won else None
    if game == "arena":
        return Reward("coins", ARENA_WIN_COINS if won else ARENA_PLACE_COINS)
    if game == "arcana":
        return Reward("coins", MATCH_WIN_COINS if won else MATCH_LOSS_COINS)
    return None


def place_of(player: str, groups: Sequence[Sequence[str]]) -> int | None:
    """The index of the player's group, or None when no group holds it."""
    return next((i for i, g in enumerate(groups) if player in g), None)
