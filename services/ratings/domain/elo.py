"""The rating system: a hidden Elo rating under the visible ladder points, tiers and the tier floor.
Pure arithmetic.

The **hidden** rating pairs players and decides gains: Elo, zero-sum between the match's two players
(the winner gains exactly what the loser loses), K the mean of the two players' K (40 for a player's
first 30 rated games, then 24), no floor. The **visible** rating (the ladder points a player sees)
follows it (``visible_after``); the highest tier reached holds the visible points, never the hidden
ones, so a floor creates no rating. Whole numbers; rounded half away from zero.
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


def hidden_step(winner: int, loser: int, winner_games: int, loser_games: int) -> int:
    """What the winner's hidden rating gains and the loser's loses (one number: zero-sum), from both
    hidden ratings and the games each played before; K is the mean of the two players' K."""
    k = (k_factor(winner_games) + k_factor(loser_games)) / 2
    return _round_half_away(k * (1.0 - expected_score(winner, loser)))


CATCH_UP_SHARE = 4  # a result closes a quarter of the gap left between visible and hidden...
CATCH_UP_MAX = 10  # ...by at most this many points


def visible_after(
    points: int, hidden_after: int, step: int, won: bool, highest_tier: str
) -> tuple[int, bool]:
    """The visible points after a win or a loss that moved the hidden rating by ``step`` to
    ``hidden_after``, and whether the tier floor held them. They move by the hidden step and
    close a quarter of the gap left (at most ``CATCH_UP_MAX``); a win never lowers them nor lifts them
    above the hidden rating (unless they were already there), a loss never raises them, and they never
    drop below the floor of the highest tier reached."""
    moved = points + step
    moved += max(-CATCH_UP_MAX, min(CATCH_UP_MAX, _round_half_away((hidden_after - moved) / CATCH_UP_SHARE)))
    after = max(points, min(moved, max(points, hidden_after))) if won else min(points, moved)
    floor = tier_floor(highest_tier)
    return max(after, floor), after < floor
