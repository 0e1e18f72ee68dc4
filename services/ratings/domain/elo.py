"""The rating system: Elo with a two-step K schedule, tiers and the tier floor. Pure arithmetic.

K is 40 for a player's first 30 rated games (a new rating moves fast to where it belongs), then 24.
Ratings are whole numbers; the delta is rounded half away from zero. A rating never drops below the
lower bound of the highest tier the player has reached.
"""

from __future__ import annotations

import math

START_RATING = 900
PROVISIONAL_GAMES = 30
K_PROVISIONAL = 40
K_ESTABLISHED = 24
ELO_SCALE = 400.0

# (tier, lower bound), ascending. Bronze starts at 0: a new player at 900 is Bronze.
TIERS: tuple[tuple[str, int], ...] = (
    ("bronze", 0),
    ("silver", 1000),
    ("gold", 1150),
    ("platinum", 1300),
    ("diamond", 1450),
    ("arcane", 1600),
)
TIER_NAMES = tuple(name for name, _ in TIERS)
_TIER_FLOOR = dict(TIERS)


def k_factor(games_played: int) -> int:
    """K for a player who has ``games_played`` rated games before this one."""
    return K_PROVISIONAL if games_played < PROVISIONAL_GAMES else K_ESTABLISHED


def expected_score(rating: float, opponent: float) -> float:
    """The Elo expectation of ``rating`` against ``opponent`` (0..1)."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / ELO_SCALE))


def tier_for(rating: int) -> str:
    """The tier a rating lies in."""
    name = TIERS[0][0]
    for tier, floor in TIERS:
        if rating >= floor:
            name = tier
    return name


def tier_floor(tier: str) -> int:
    """The lower bound of ``tier``; raises KeyError for an unknown tier."""
    return _TIER_FLOOR[tier]


def higher_tier(a: str, b: str) -> str:
    return a if TIER_NAMES.index(a) >= TIER_NAMES.index(b) else b


def _round_half_away(x: float) -> int:
    return math.floor(abs(x) + 0.5) * (1 if x >= 0 else -1)


def new_rating(rating: int, opponent: int, score: float, games_played: int, highest_tier: str) -> int:
    """The rating after one game (``score`` 1 for a win, 0 for a loss), held at the tier floor."""
    delta = _round_half_away(k_factor(games_played) * (score - expected_score(rating, opponent)))
    return max(rating + delta, tier_floor(highest_tier))
