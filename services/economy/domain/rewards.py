"""What an ended match pays a player whose verdict lets it pay (``verdict.coins``, ``libs.fairplay``),
by game, mode and place: the game's rewards table, declared in its offer (``libs.games.offer.Rewards``,
found by the game's name in ``libs.games.registry``; services/economy/README.md, "Credits").

The verdict decides whether a player is paid at all (mode, turns, repeat opponents, the daily limit
of paying matches shared by every game); the table only says how much, and in which currency.
"""

from __future__ import annotations

from collections.abc import Sequence

from libs.games import registry
from libs.games.offer import Reward

__all__ = ["Reward", "match_reward", "place_of"]


def match_reward(game: str, mode: str, place: int, groups: int) -> Reward | None:
    """The reward of the player in placement group ``place`` (0: the best) of ``groups``; one group
    is a draw (nobody won). None: the game (or a game not hosted here) pays nothing to that place."""
    try:
        table = registry.offer(game).rewards
    except registry.UnknownGame:
        return None
    return table.of(mode, place, groups)


def place_of(player: str, groups: Sequence[Sequence[str]]) -> int | None:
    """The index of the player's group, or None when no group holds it."""
    return next((i for i, g in enumerate(groups) if player in g), None)
