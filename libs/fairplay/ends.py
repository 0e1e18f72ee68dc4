"""What the fair-play rule reads of an ended match (``MatchEnd``) and decides for each player
(``Verdict``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any, Protocol

from .limits import MODE_RULES, explain
from .tally import pair_key

ASPECTS = ("coins", "xp", "rating")  # xp: XP and quest progress


class Judging(Protocol):
    """How a game's ended matches are judged (``libs.games.offer.FairPlay``, read by the services
    from the game's offer): its row of the table and the player counts it seats."""

    @property
    def rule(self) -> str: ...

    @property
    def seats(self) -> tuple[int, ...]: ...


@dataclass(frozen=True)
class Standard:
    rule: str = "standard"
    seats: tuple[int, ...] = (2,)


STANDARD = Standard()  # a game whose offer names no rule: Arcana's row, two players


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
        news = [r for a, r in sorted(self.reasons.items()) if r not in MODE_RULES]
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
    rule: str = "standard"  # the game's row of the table (``games.RULES``)

    @classmethod
    def from_data(cls, data: Mapping[str, Any], judging: Judging = STANDARD) -> MatchEnd | None:
        """From a ``MatchEnded``'s data, judged as its game's offer says (``judging``); None when
        malformed (distinct player ids, as many as the game seats; an int of turns; a winner among
        the players unless a draw)."""
        given, turns = data.get("players"), data.get("turns")
        if not isinstance(given, list) or not all(isinstance(p, str) for p in given):
            return None
        players: tuple[str, ...] = tuple(given)
        if (
            len(set(players)) != len(players)
            or len(players) not in judging.seats
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
        return cls(str(data.get("mode")), players, winner, turns, str(data.get("reason")), bot, judging.rule)

    @property
    def pair(self) -> str:
        """The key of a two-player match's pair (the first pair at a larger table)."""
        return self.pairs[0][2]

    @property
    def pairs(self) -> tuple[tuple[str, str, str], ...]:
        """Every two players of the match, with their pair's key: one pair, or each of a table's."""
        return tuple((a, b, pair_key(a, b)) for a, b in combinations(self.players, 2))
