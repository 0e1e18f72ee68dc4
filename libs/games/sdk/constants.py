"""Values several games share."""

from __future__ import annotations

from enum import StrEnum


class Rarity(StrEnum):
    """A card's rarity: the same five in every game with cards (packs and crafting price by it)."""

    COMMON = "common"
    UNCOMMON = "uncommon"
    RARE = "rare"
    EPIC = "epic"
    LEGENDARY = "legendary"
