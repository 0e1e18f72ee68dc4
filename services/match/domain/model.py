"""The match as the service folds it from its stream: the rules state plus mode, bot, timer
starts and presence; and the replay check against the stored state hashes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from libs.rules import State, evolve, state_hash
from libs.rules.constants import Ev

MULLIGAN_SECONDS = 30
TURN_SECONDS = 60
IDLE_SECONDS = 20  # no request for this long: disconnected
DISCONNECT_FORFEIT_SECONDS = 120  # disconnected this long in a row: forfeit

MATCH_CREATED = "MatchCreated"
PLAYER_DISCONNECTED = "PlayerDisconnected"
PLAYER_RECONNECTED = "PlayerReconnected"
MATCH_REQUEST_REJECTED = "MatchRequestRejected"
SERVICE_EVENTS = frozenset({MATCH_CREATED, PLAYER_DISCONNECTED, PLAYER_RECONNECTED, MATCH_REQUEST_REJECTED})
RULES_EVENTS = frozenset(e.value for e in Ev)
HASH_KEY = "state_hash"

MODES = ("ranked", "casual", "practice", "admin")
PLAYER_COMMANDS = ("mulligan", "play", "attack", "end_turn", "concede")

Event = tuple[str, dict[str, Any]]  # (type, data) about to be stored
Row = tuple[str, Mapping[str, Any], datetime, int]  # a stored event: type, data, occurred_at, version


class NotAPlayer(Exception):
    """The requester is not one of the match's two players (the API answers 404)."""


@dataclass(frozen=True)
class Match:
    """A match folded from its stream. ``rules`` is None until MatchStarted."""

    match_id: str
    mode: str
    players: tuple[str, str]
    bot: str | None
    created_at: datetime
    version: int = 0
    rules: State | None = None
    started_at: datetime | None = None
    turn_started_at: datetime | None = None
    disconnected: Mapping[str, datetime] = field(default_factory=dict)
    rejected: bool = False

    @property
    def ended(self) -> bool:
        return self.rejected or (self.rules is not None and self.rules.phase == "ended")

    @property
    def phase(self) -> str:
        if self.rejected:
            return "rejected"
        return self.rules.phase if self.rules is not None else "created"

    def humans(self) -> list[str]:
        return [p for p in self.players if p != self.bot]


def evolve_match(m: Match | None, kind: str, data: Mapping[str, Any], at: datetime, version: int) -> Match:
    """The match after one stored event (``at`` is the event's ``occurred_at``)."""
    if kind == MATCH_CREATED:
        return Match(
            str(data["match_id"]), data["mode"], tuple(data["players"]), data.get("bot"), at, version
        )
    if kind == MATCH_REQUEST_REJECTED:
        players = tuple(p["id"] if isinstance(p, Mapping) else str(p) for p in data.get("players") or ())
        return Match(str(data["match_id"]), str(data.get("mode")), players, None, at, version, rejected=True)  # type: ignore[arg-type]
    if m is None:
        raise ValueError("a match stream starts with MatchCreated")
    if kind == PLAYER_DISCONNECTED:
        since = datetime.fromisoformat(data["since"])
        return replace(m, version=version, disconnected={**m.disconnected, data["player"]: since})
    if kind == PLAYER_RECONNECTED:
        rest = {p: t for p, t in m.disconnected.items() if p != data["player"]}
        return replace(m, version=version, disconnected=rest)
    return _timed(m, kind, at, version, rules=evolve(m.rules, data))


def _timed(m: Match, kind: str, at: datetime, version: int, **changes: Any) -> Match:
    """``m`` at ``version`` after the rules event ``kind`` stored at ``at`` (its timers started)."""
    if kind == "MatchStarted":
        changes["started_at"] = at
    elif kind == "TurnStarted":
        changes["turn_started_at"] = at
    return replace(m, version=version, **changes)


def fold_match(events: Iterable[Row], m: Match | None = None) -> Match:
    """The match after the stored ``events`` (from ``m``); raises ValueError for no events or a stream
    that does not start with MatchCreated (or MatchRequestRejected)."""
    for kind, data, at, version in events:
        m = evolve_match(m, kind, data, at, version)
    if m is None:
        raise ValueError("no events")
    return m


def fold_decided(m: Match | None, events: Iterable[Row], rules: State | None) -> Match:
    """The match after a batch it has just decided and stored: as ``fold_match``, but its rules state is
    ``rules``, the one the decision computed (None: the batch holds no rules event), instead of
    evolving the rules events a second time. Raises ValueError as ``fold_match`` does."""
    for kind, data, at, version in events:
        if kind in SERVICE_EVENTS:
            m = evolve_match(m, kind, data, at, version)
        elif m is None:
            raise ValueError("a match stream starts with MatchCreated")
        else:
            m = _timed(m, kind, at, version)
    if m is None:
        raise ValueError("no events")
    return m if rules is None else replace(m, rules=rules)


def replay_problems(events: Iterable[Row]) -> list[str]:
    """Versions whose stored ``state_hash`` differs from the replayed state's (empty: no drift)."""
    problems = []
    m: Match | None = None
    for kind, data, at, version in events:
        m = evolve_match(m, kind, data, at, version)
        stored = data.get(HASH_KEY)
        if stored is not None and (m.rules is None or state_hash(m.rules) != stored):
            problems.append(f"version {version}: stored hash {stored} differs from the replayed state")
    return problems
