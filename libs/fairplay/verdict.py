"""The verdict of an ended match for each player: whether it pays coins, gives XP and moves quests,
and moves the player's rating, with the reason for each aspect that does not count.

``decide`` is the rule as it stands (docs/rules.md, "Fair play"), given what the day already counted
(``tally.DayTally``). ``verdicts_of`` reads a ``MatchEnded``: its published verdict, or for an event
published before verdicts existed the rule of that time (ranked and casual from turn 4 count fully;
ranked ones also move both ratings unless a draw).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .limits import (
    COUNTING_MODES,
    DAILY_COIN_MATCHES,
    EARLY_END_BY_PLAYER,
    MIN_TURNS,
    PAIR_DAILY_MATCHES,
    explain,
)
from .tally import DayTally, pair_key

ASPECTS = ("coins", "xp", "rating")  # xp: XP and quest progress


@dataclass(frozen=True)
class Verdict:
    """What one ended match counts for one player. ``rating``: the player's rating moves by the
    result (a win or a loss against the opponent's rating). ``reasons``: per aspect that does not
    count, its reason code (``limits.REASONS``)."""

    coins: bool = False
    xp: bool = False
    rating: bool = False
    reasons: Mapping[str, str] = field(default_factory=dict)

    @property
    def counts(self) -> bool:
        """Whether anything counts for this player."""
        return self.coins or self.xp or self.rating

    def refuse(self, aspects: tuple[str, ...], reason: str) -> Verdict:
        """This verdict with ``aspects`` not counting, for ``reason`` (other reasons kept)."""
        reasons = dict(self.reasons)
        for a in aspects:
            if getattr(self, a):
                reasons[a] = reason
        return replace(self, reasons=reasons, **{a: False for a in aspects})

    def to_data(self) -> dict[str, Any]:
        """As published in ``MatchEnded.verdict``: the three flags, the reason codes, and the words
        the player is told (None when everything the mode can count counted)."""
        news = [r for a, r in sorted(self.reasons.items()) if r != "not_ranked"]  # casual never rates
        words = sorted({explain(r) for r in news})
        return {
            "coins": self.coins,
            "xp": self.xp,
            "rating": self.rating,
            "reasons": dict(sorted(self.reasons.items())),
            "message": "; ".join(words) or None,
        }

    @classmethod
    def from_data(cls, data: Any) -> Verdict | None:
        """A published verdict, or None when ``data`` is not one."""
        if not isinstance(data, Mapping) or not all(isinstance(data.get(a), bool) for a in ASPECTS):
            return None
        given = data.get("reasons")
        reasons: Mapping[Any, Any] = given if isinstance(given, Mapping) else {}
        return cls(data["coins"], data["xp"], data["rating"], {str(k): str(v) for k, v in reasons.items()})


@dataclass(frozen=True)
class MatchEnd:
    """What the rule reads of an ended match."""

    mode: str
    players: tuple[str, ...]
    winner: str | None  # None for a draw
    turns: int
    reason: str  # how it ended: hero_killed, concede, timeouts, disconnect, draw
    bot: str | None = None

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> MatchEnd | None:
        """From a ``MatchEnded``'s data; None when malformed (two distinct player ids, an int of turns,
        a winner among the players unless a draw)."""
        given, turns = data.get("players"), data.get("turns")
        if not isinstance(given, list) or not all(isinstance(p, str) for p in given):
            return None
        players: tuple[str, ...] = tuple(given)
        if (
            len(set(players)) != 2
            or len(players) != 2
            or not isinstance(turns, int)
            or isinstance(turns, bool)
        ):
            return None
        winner = None if data.get("draw") else data.get("winner")
        if winner is not None and winner not in players:
            return None
        if winner is None and not data.get("draw"):
            return None
        bot = data.get("bot")
        return cls(str(data.get("mode")), players, winner, turns, str(data.get("reason")), bot)

    @property
    def pair(self) -> str:
        return pair_key(*self.players)


def _by_mode_and_length(end: MatchEnd, early_concede_rule: bool = True) -> dict[str, Verdict]:
    """Each player's verdict before the daily limits: the mode, the turns reached, the result."""
    if end.mode not in COUNTING_MODES or end.bot is not None:
        return {p: Verdict(reasons=dict.fromkeys(ASPECTS, "mode")) for p in end.players}
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
        return {p: Verdict(reasons=dict.fromkeys(ASPECTS, "too_short")) for p in end.players}
    if end.mode != "ranked":
        return {p: Verdict(True, True, False, {"rating": "not_ranked"}) for p in end.players}
    if end.winner is None:
        return {p: Verdict(True, True, False, {"rating": "draw"}) for p in end.players}
    return {p: Verdict(True, True, True) for p in end.players}


def decide(end: MatchEnd, day: DayTally) -> dict[str, Verdict]:
    """Each player's verdict on ``end``, given what the match's UTC day counted before it (``day``):
    the repeat-opponent rule (once the pair's first ``PAIR_DAILY_MATCHES`` paying matches were played,
    nothing between them counts that day), then the daily coin limit (``DAILY_COIN_MATCHES`` paying
    matches per player)."""
    verdicts = _by_mode_and_length(end)
    if not any(v.counts for v in verdicts.values()):
        return verdicts
    if day.pair_matches(end.pair) >= PAIR_DAILY_MATCHES:
        return {p: v.refuse(ASPECTS, "repeat_opponent") for p, v in verdicts.items()}
    return {
        p: v.refuse(("coins",), "daily_coin_limit") if day.coin_matches(p) >= DAILY_COIN_MATCHES else v
        for p, v in verdicts.items()
    }


def verdicts_of(data: Mapping[str, Any]) -> dict[str, Verdict]:
    """Each player's verdict on a ``MatchEnded``: the published ``verdict`` when it has one for both
    players, else (an event from before verdicts: the upcast) the rule of that time. Empty for a
    malformed event."""
    end = MatchEnd.from_data(data)
    if end is None:
        return {}
    published = data.get("verdict")
    if isinstance(published, Mapping):
        read = {p: Verdict.from_data(published.get(p)) for p in end.players}
        if all(v is not None for v in read.values()):
            allowed = _by_mode_and_length(end)
            return {p: _within(v, allowed[p]) for p, v in read.items() if v is not None}
    return _by_mode_and_length(end, early_concede_rule=False)


def _within(published: Verdict, allowed: Verdict) -> Verdict:
    """A published verdict can only take away what the mode and length allow, never add (an admin
    match counts nothing, whatever its verdict says)."""
    refused = tuple(a for a in ASPECTS if getattr(published, a) and not getattr(allowed, a))
    return replace(
        published,
        reasons={**published.reasons, **{a: allowed.reasons[a] for a in refused}},
        **{a: False for a in refused},
    )
