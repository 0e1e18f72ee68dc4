"""The MMR system (the line's ladder, seed 001), apart from Elo. Pure arithmetic.

Everyone starts at 1,000; a counted ranked win is +2, a loss -1 (a win weighs more than a loss, so
the pool slowly grows); no tiers and no floors, except that MMR never goes below 0.
"""

from __future__ import annotations

from typing import Final

START_MMR: Final = 1000
MMR_WIN: Final = 2
MMR_LOSS: Final = -1
MMR_MIN: Final = 0
NO_TIER: Final = "none"  # what an MMR RatingChanged carries as its tiers: the system has none


def new_mmr(mmr: int, won: bool) -> int:
    """The MMR after one counted ranked match, never below ``MMR_MIN``."""
    return max(MMR_MIN, mmr + (MMR_WIN if won else MMR_LOSS))
