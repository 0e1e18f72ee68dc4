"""Each game's verdict before the daily limits (the BRIEF's table; docs/rules.md, "Fair play"): what a
match of that game, mode and length can count for each player. The daily limits (repeat opponents,
the coin limit) then apply to every game alike (``verdict.decide``). A game names its row by the
row's name in its offer (``libs.games.offer.FairPlay``), which the services pass in ``MatchEnd.rule``:

- ``standard`` (Arcana's, and a game's that names none): ranked and casual from turn 4 pay coins and
  XP to both, ranked moves both ratings unless a draw; an early ranked concede costs the leaver a loss;
- ``winner_paid`` (the line's): practice gives the winner XP only (a training battle), casual pays the
  winner coins (shards) and XP, ranked pays both coins (shards: the amounts are economy's) and moves
  both ratings, no XP; no turn minimum (a fight has no turns);
- ``casual_only`` (the arena's): casual pays coins and XP to every player from turn 4, moves no
  rating; practice nothing.

Practice with a bot and ``admin`` count nothing unless the game's rule says so (the line's training
pays its human winner XP); a bot never counts.
"""

from __future__ import annotations

from collections.abc import Callable

from .ends import ASPECTS, MatchEnd, Verdict
from .limits import ADMIN, COUNTING_MODES, EARLY_END_BY_PLAYER, MIN_TURNS

Rule = Callable[[MatchEnd, bool], dict[str, Verdict]]

NOTHING = dict.fromkeys(ASPECTS, "mode")


def _nothing(end: MatchEnd, reason: str = "mode") -> dict[str, Verdict]:
    return {p: Verdict(reasons=dict.fromkeys(ASPECTS, reason)) for p in end.players}


def standard(end: MatchEnd, early_concede_rule: bool = True) -> dict[str, Verdict]:
    """Arcana's rule (unchanged): the mode, the turns reached, the result."""
    if end.mode not in COUNTING_MODES or end.bot is not None:
        return _nothing(end)
    if end.turns < MIN_TURNS:
        early_by = end.reason in EARLY_END_BY_PLAYER and end.winner is not None
        if early_concede_rule and end.mode == "ranked" and early_by:
            unpaid = dict.fromkeys(("coins", "xp"), "early_concede")
            return {  # the one who left loses as usual; the other gains nothing
                p: Verdict(rating=True, reasons=unpaid)
                if p != end.winner
                else Verdict(reasons={**unpaid, "rating": "early_concede"})
                for p in end.players
            }
        return _nothing(end, "too_short")
    if end.mode != "ranked":
        return {p: Verdict(True, True, False, {"rating": "not_ranked"}) for p in end.players}
    if end.winner is None:
        return {p: Verdict(True, True, False, {"rating": "draw"}) for p in end.players}
    return {p: Verdict(True, True, True) for p in end.players}


def winner_paid(end: MatchEnd, early_concede_rule: bool = True) -> dict[str, Verdict]:
    """The line: no turn minimum; only the winner is paid outside ranked."""
    if end.mode == ADMIN or end.mode not in (*COUNTING_MODES, "practice"):
        return _nothing(end)
    out: dict[str, Verdict] = {}
    for p in end.players:
        won = p == end.winner
        if p == end.bot:
            out[p] = Verdict(reasons=NOTHING)
        elif end.mode == "practice":
            xp = {"xp": "winner_only"} if not won else {}
            out[p] = Verdict(xp=won, reasons={"coins": "mode", "rating": "not_ranked", **xp})
        elif end.mode == "casual":
            paid = {} if won else {"coins": "winner_only", "xp": "winner_only"}
            out[p] = Verdict(coins=won, xp=won, reasons={"rating": "not_ranked", **paid})
        else:
            out[p] = Verdict(coins=True, rating=True, reasons={"xp": "no_xp"})
    return out


def casual_only(end: MatchEnd, early_concede_rule: bool = True) -> dict[str, Verdict]:
    """The arena: casual counts like a casual Arcana match (coins and XP for every place, from turn
    4); practice (against bots) and admin count nothing."""
    if end.mode != "casual" or end.bot is not None:
        return _nothing(end)
    if end.turns < MIN_TURNS:
        return _nothing(end, "too_short")
    return {p: Verdict(True, True, False, {"rating": "not_ranked"}) for p in end.players}


RULES: dict[str, Rule] = {"standard": standard, "winner_paid": winner_paid, "casual_only": casual_only}


def by_rule(end: MatchEnd, early_concede_rule: bool = True) -> dict[str, Verdict]:
    """Each player's verdict on ``end`` by its game's rule (``standard`` for a name not in the table)."""
    return RULES.get(end.rule, standard)(end, early_concede_rule)
