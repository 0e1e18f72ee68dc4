"""The ratings domain, pure (standard library only).

A hidden Elo rating (zero-sum between the two players; K 40 for a player's first 30 counted games,
then 24, the match's K the mean of both) under the visible ladder points that follow it; start 900;
tiers Bronze 0, Silver 1000, Gold 1150, Platinum 1300, Diamond 1450, Arcane 1600; the highest tier
reached is a floor of the visible points only.
One stream per player, ``rating-<player>``, of ``RatingChanged`` events. The line's MMR (``mmr.py``:
start 1,000, win +2, loss -1, never below 0) is a ladder of its own, ``line-rating-<player>``. Which
ranked matches move whose rating is the match's fair-play verdict (``ranked_result``; ``libs.fairplay``).
"""

from .decisions import RANKED, AlreadyRated, RankedResult, Unmoved, keep, ranked_result, rate, unmoved
from .elo import (
    CATCH_UP_MAX,
    CATCH_UP_SHARE,
    K_ESTABLISHED,
    K_PROVISIONAL,
    PROVISIONAL_GAMES,
    START_RATING,
    TIER_NAMES,
    TIERS,
    expected_score,
    hidden_step,
    k_factor,
    tier_floor,
    tier_for,
    visible_after,
)
from .mmr import LINE, MMR_LOSS, MMR_MIN, MMR_WIN, NO_TIER, START_MMR, new_mmr
from .model import (
    ARCANA,
    DRAW,
    FLOOR,
    LADDERS,
    LOSS,
    RATING_CHANGED,
    RATING_UNCHANGED,
    WIN,
    PlayerRating,
    RatingChanged,
    RatingEvent,
    RatingUnchanged,
    event_from,
    evolve,
    fold,
    rating_stream,
    start,
)

__all__ = [
    "ARCANA",
    "CATCH_UP_MAX",
    "CATCH_UP_SHARE",
    "DRAW",
    "FLOOR",
    "K_ESTABLISHED",
    "K_PROVISIONAL",
    "LADDERS",
    "LINE",
    "LOSS",
    "MMR_LOSS",
    "MMR_MIN",
    "MMR_WIN",
    "NO_TIER",
    "PROVISIONAL_GAMES",
    "RANKED",
    "RATING_CHANGED",
    "RATING_UNCHANGED",
    "START_MMR",
    "START_RATING",
    "TIERS",
    "TIER_NAMES",
    "WIN",
    "AlreadyRated",
    "PlayerRating",
    "RankedResult",
    "RatingChanged",
    "RatingEvent",
    "RatingUnchanged",
    "Unmoved",
    "event_from",
    "evolve",
    "expected_score",
    "fold",
    "hidden_step",
    "k_factor",
    "keep",
    "new_mmr",
    "ranked_result",
    "rate",
    "rating_stream",
    "start",
    "tier_floor",
    "tier_for",
    "unmoved",
    "visible_after",
]
