"""The numbers of the fair-play rules and the words a player is told when a match does not count."""

from __future__ import annotations

from typing import Final

COUNTING_MODES: Final = ("ranked", "casual")  # practice and admin never count
ADMIN: Final = "admin"  # the mode of every operator-created match
MIN_TURNS: Final = 4  # a match counts from turn 4 (``MatchEnded.turns >= 4``)
PAIR_DAILY_MATCHES: Final = 3  # counting matches between the same two players per UTC day
DAILY_COIN_MATCHES: Final = 10  # matches that pay coins per player per UTC day
REMATCH_WAIT_SECONDS: Final = 60.0  # ranked: the previous opponents meet again once both waited this
EARLY_END_BY_PLAYER: Final = (
    "concede",
    "timeouts",
    "disconnect",
    "suspended",
)  # a player chose (or let) it end

# Why an aspect of a match does not count, as its code and the words shown to the player.
REASONS: Final = {
    "repeat_opponent": "repeat opponent",
    "daily_coin_limit": "daily coin limit reached",
    "early_concede": "conceded or forfeited before turn 4",
    "too_short": "ended before turn 4",
    "mode": "practice and operator matches pay nothing",
    "not_ranked": "only ranked matches move ratings",
    "draw": "a draw moves no rating",
    "winner_only": "only the winner is paid in this mode",
    "no_xp": "this mode gives no XP",
}
# Reasons that only say how a mode pays, not news to the player (left out of a verdict's words).
MODE_RULES: Final = frozenset({"not_ranked", "winner_only", "no_xp"})


def explain(code: str) -> str:
    """The words for a reason code (the code itself when unknown)."""
    return REASONS.get(code, code)


def may_rematch(waited_a: float, waited_b: float) -> bool:
    """Whether the two players of one's previous ranked match may be paired again: once both waited
    ``REMATCH_WAIT_SECONDS``."""
    return min(waited_a, waited_b) >= REMATCH_WAIT_SECONDS
