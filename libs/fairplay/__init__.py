"""The fair-play rules (docs/rules.md, "Fair play"), once for every service: which ended match counts,
for whom and for what (coins, XP and quests, rating), and why not when it does not. Each game has its
row of the verdict table (``games``), which its offer names (``libs.games.offer.FairPlay``); the daily
limits are shared by all. Pure: standard library only. The match service decides each verdict as a
match ends and publishes it in ``MatchEnded``; economy, progression and ratings obey it
(``verdicts_of``), and matchmaking pairs by ``may_rematch``."""

from .ends import STANDARD, Judging
from .limits import (
    ADMIN,
    COUNTING_MODES,
    DAILY_COIN_MATCHES,
    MIN_TURNS,
    PAIR_DAILY_MATCHES,
    REASONS,
    REMATCH_WAIT_SECONDS,
    explain,
    may_rematch,
)
from .tally import DayTally, pair_key, record
from .verdict import ASPECTS, MatchEnd, Verdict, decide, verdicts_of

__all__ = [
    "ADMIN",
    "ASPECTS",
    "COUNTING_MODES",
    "DAILY_COIN_MATCHES",
    "MIN_TURNS",
    "PAIR_DAILY_MATCHES",
    "REASONS",
    "REMATCH_WAIT_SECONDS",
    "STANDARD",
    "DayTally",
    "Judging",
    "MatchEnd",
    "Verdict",
    "decide",
    "explain",
    "may_rematch",
    "pair_key",
    "record",
    "verdicts_of",
]
