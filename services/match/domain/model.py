"""The match as the service folds it from its stream: the game's state plus mode, bot, the clocks of
the game's waits and presence; and the replay check against the stored state hashes.

The game is reached only through ``libs.games``: ``game_of(m)`` is the match's game from the
registry, by the ``game`` of its ``MatchCreated`` (``arcana`` for streams stored before games had
names: the upcast on read; stored events are never rewritten).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from libs.games import Game, Wait, registry
from libs.games.registry import DEFAULT_GAME

IDLE_SECONDS = 20  # no request for this long: disconnected
DISCONNECT_FORFEIT_SECONDS = 120  # disconnected this long in a row: forfeit

MATCH_CREATED = "MatchCreated"
PLAYER_DISCONNECTED = "PlayerDisconnected"
PLAYER_RECONNECTED = "PlayerReconnected"
MATCH_REQUEST_REJECTED = "MatchRequestRejected"
SERVICE_EVENTS = frozenset({MATCH_CREATED, PLAYER_DISCONNECTED, PLAYER_RECONNECTED, MATCH_REQUEST_REJECTED})
HASH_KEY = "state_hash"
APPENDED_KEYS = (HASH_KEY, "verdict")  # added to a game's event after its state hash was computed

# Modes as data: who may create a match of each mode is the creation use case's to check.
MODES = ("ranked", "casual", "practice", "admin", "tournament")  # tournament: a bracket's fight

Event = tuple[str, dict[str, Any]]  # (type, data) about to be stored
Row = tuple[str, Mapping[str, Any], datetime, int]  # a stored event: type, data, occurred_at, version


class NotAPlayer(Exception):
    """The requester is not one of the match's players (the API answers 404)."""


def game_named(name: str) -> Game:
    """The hosted game called ``name`` (``registry.UnknownGame`` otherwise)."""
    return registry.get(name)


@dataclass(frozen=True)
class Match:
    """A match folded from its stream. ``rules`` is the game's state, None until the game's first
    event; ``clocks``: when each of the game's current waits began (by ``Wait.key``)."""

    match_id: str
    mode: str
    players: tuple[str, ...]
    bot: str | None
    created_at: datetime
    version: int = 0
    rules: Any = None
    clocks: Mapping[str, datetime] = field(default_factory=dict)
    disconnected: Mapping[str, datetime] = field(default_factory=dict)
    rejected: bool = False
    game: str = DEFAULT_GAME
    bots: tuple[str, ...] = ()  # every bot (``bot`` is the first); practice only

    @property
    def ended(self) -> bool:
        return self.rejected or (self.rules is not None and game_of(self).result(self.rules) is not None)

    @property
    def phase(self) -> str:
        if self.rejected:
            return "rejected"
        return game_of(self).progress(self.rules).phase if self.rules is not None else "created"

    def humans(self) -> list[str]:
        return [p for p in self.players if p != self.bot and p not in self.bots]

    def bots_awaited(self, awaited: list[str]) -> list[str]:
        """The bots among ``awaited`` (players the match waits for), in that order."""
        return [p for p in awaited if p == self.bot or p in self.bots]


def game_of(m: Match) -> Game:
    """The match's game."""
    return game_named(m.game)


def waits(m: Match) -> list[Wait]:
    """What the running match waits for (the game's waits; none once it has ended)."""
    if m.rules is None or m.rejected:
        return []
    return game_of(m).waits(m.rules)


def due_at(m: Match, wait: Wait) -> datetime | None:
    """When ``wait`` times out (None: it has no timer)."""
    if wait.seconds is None:
        return None
    return m.clocks.get(wait.key, m.created_at) + timedelta(seconds=wait.seconds)


def evolve_match(m: Match | None, kind: str, data: Mapping[str, Any], at: datetime, version: int) -> Match:
    """The match after one stored event (``at`` is the event's ``occurred_at``)."""
    if kind == MATCH_CREATED:
        game = str(data.get("game") or DEFAULT_GAME)
        bot = data.get("bot")
        bots = tuple(data.get("bots") or ([bot] if bot else []))  # before ``bots``: the one bot
        return Match(
            str(data["match_id"]),
            data["mode"],
            tuple(data["players"]),
            bot,
            at,
            version,
            game=game,
            bots=bots,
        )
    if kind == MATCH_REQUEST_REJECTED:
        players = tuple(p["id"] if isinstance(p, Mapping) else str(p) for p in data.get("players") or ())
        game = str(data.get("game") or DEFAULT_GAME)
        return Match(
            str(data["match_id"]), str(data.get("mode")), players, None, at, version, rejected=True, game=game
        )
    if m is None:
        raise ValueError("a match stream starts with MatchCreated")
    if kind == PLAYER_DISCONNECTED:
        since = datetime.fromisoformat(data["since"])
        return replace(m, version=version, disconnected={**m.disconnected, data["player_id"]: since})
    if kind == PLAYER_RECONNECTED:
        rest = {p: t for p, t in m.disconnected.items() if p != data["player_id"]}
        return replace(m, version=version, disconnected=rest)
    return _clocked(m, game_of(m).evolve(m.rules, _game_event(data)), at, version)


def _game_event(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """A stored game event as the game made it: without what the service adds after deciding (the
    state hash, and the fair-play ``verdict`` written into a MatchEnded as it is appended): a game
    may keep its events in its state (the line does), and the hash is of the state without them."""
    if not any(k in data for k in APPENDED_KEYS):
        return data
    return {k: v for k, v in data.items() if k not in APPENDED_KEYS}


def _clocked(m: Match, rules: Any, at: datetime, version: int) -> Match:
    """``m`` at ``version`` with the game state ``rules`` reached at ``at``: the clock of each wait
    that has just appeared starts at ``at``; those of waits that are gone stop."""
    current = game_of(m).waits(rules)
    clocks = {w.key: m.clocks.get(w.key, at) for w in current}
    return replace(m, version=version, rules=rules, clocks=clocks)


def fold_match(events: Iterable[Row], m: Match | None = None) -> Match:
    """The match after the stored ``events`` (from ``m``); raises ValueError for no events or a stream
    that does not start with MatchCreated (or MatchRequestRejected)."""
    for kind, data, at, version in events:
        m = evolve_match(m, kind, data, at, version)
    if m is None:
        raise ValueError("no events")
    return m


def fold_decided(m: Match | None, events: Iterable[Row], rules: Any) -> Match:
    """The match after a batch it has just decided and stored: as ``fold_match``, but its game state is
    ``rules``, the one the decision computed (None: the batch holds no game event), instead of
    evolving the game's events a second time. Raises ValueError as ``fold_match`` does."""
    played_at: datetime | None = None
    for kind, data, at, version in events:
        if kind in SERVICE_EVENTS:
            m = evolve_match(m, kind, data, at, version)
        elif m is None:
            raise ValueError("a match stream starts with MatchCreated")
        else:
            m = replace(m, version=version)
            played_at = at
    if m is None:
        raise ValueError("no events")
    if rules is None or played_at is None:
        return m
    return _clocked(m, rules, played_at, m.version)


def replay_problems(events: Iterable[Row]) -> list[str]:
    """Versions whose stored ``state_hash`` differs from the replayed state's (empty: no drift)."""
    problems = []
    m: Match | None = None
    for kind, data, at, version in events:
        m = evolve_match(m, kind, data, at, version)
        stored = data.get(HASH_KEY)
        if stored is not None and (m.rules is None or game_of(m).state_hash(m.rules) != stored):
            problems.append(f"version {version}: stored hash {stored} differs from the replayed state")
    return problems
