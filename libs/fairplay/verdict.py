"""The verdict of an ended match for each player: whether it pays coins, gives XP and moves quests,
and moves the player's rating, with the reason for each aspect that does not count.

``decide`` is the rule as it stands (docs/rules.md, "Fair play"): each game's verdict before the
limits (``games.by_rule``), then the daily limits, shared by every game, given what the day already
counted (``tally.DayTally``). ``verdicts_of`` reads a ``MatchEnded``: its published verdict, or for
an event published before verdicts existed the rule of that time (ranked and casual from turn 4
count fully; ranked ones also move both ratings unless a draw).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .ends import ASPECTS, STANDARD, Judging, MatchEnd, Verdict
from .games import by_rule
from .limits import DAILY_COIN_MATCHES, PAIR_DAILY_MATCHES
from .tally import DayTally

__all__ = ["ASPECTS", "MatchEnd", "Verdict", "decide", "verdicts_of"]


def decide(end: MatchEnd, day: DayTally) -> dict[str, Verdict]:
    """Each player's verdict on ``end``, given what the match's UTC day counted before it (``day``),
    across every game: the repeat-opponent rule (once a pair's first ``PAIR_DAILY_MATCHES`` paying
    matches were played, nothing counts that day for either of them in a match together; at a table
    of more, for each player of such a pair), then the daily coin limit (``DAILY_COIN_MATCHES``
    paying matches per player)."""
    verdicts = by_rule(end)
    if not any(v.counts for v in verdicts.values()):
        return verdicts
    repeated = {p for a, b, key in end.pairs if day.pair_matches(key) >= PAIR_DAILY_MATCHES for p in (a, b)}
    return {
        p: v.refuse(ASPECTS, "repeat_opponent")
        if p in repeated
        else v.refuse(("coins",), "daily_coin_limit")
        if day.coin_matches(p) >= DAILY_COIN_MATCHES
        else v
        for p, v in verdicts.items()
    }


def verdicts_of(data: Mapping[str, Any], judging: Judging = STANDARD) -> dict[str, Verdict]:
    """Each player's verdict on a ``MatchEnded``: the published ``verdict`` when it has one for every
    player, else (an event from before verdicts: the upcast) the rule of that time. Empty for a
    malformed event. ``judging``: its game's (``libs.games.offer.FairPlay``)."""
    end = MatchEnd.from_data(data, judging)
    if end is None:
        return {}
    published = data.get("verdict")
    if isinstance(published, Mapping):
        read = {p: Verdict.from_data(published.get(p)) for p in end.players}
        if all(v is not None for v in read.values()):
            allowed = by_rule(end)
            return {p: _within(v, allowed[p]) for p, v in read.items() if v is not None}
    return by_rule(end, early_concede_rule=False)


def _within(published: Verdict, allowed: Verdict) -> Verdict:
    """A published verdict can only take away what the mode and length allow, never add (an admin
    match counts nothing, whatever its verdict says)."""
    refused = tuple(a for a in ASPECTS if getattr(published, a) and not getattr(allowed, a))
    return replace(
        published,
        reasons={**published.reasons, **{a: allowed.reasons[a] for a in refused}},
        **{a: False for a in refused},
    )
