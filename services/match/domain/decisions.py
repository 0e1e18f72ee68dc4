"""Deciding: the opening events of a match, the events a command causes (the game's or presence),
every system command due at a moment, the enriched MatchEnded, and why a MatchRequested cannot start
a match. The game decides through ``libs.games`` only. The service's own events are built through
their declared integration events (``services.match.events``), so what is stored is what is
declared."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from libs.games import END_EVENT, Game, MatchOver, Seat, Setup, shapes
from libs.games.registry import DEFAULT_GAME, UnknownGame
from services.match.events import (
    MatchCreated,
    MatchEnded,
    MatchRequestRejected,
    PlayerDisconnected,
    PlayerReconnected,
)

from .model import (
    HASH_KEY,
    MATCH_CREATED,
    MATCH_REQUEST_REJECTED,
    PLAYER_DISCONNECTED,
    PLAYER_RECONNECTED,
    Event,
    Match,
    fold_decided,
    game_named,
    game_of,
)
from .timers import next_due

REQUEST_MODES = ("ranked", "casual")


@dataclass(frozen=True)
class Decision:
    """What a command decided: the events about to be stored, and the rules state after them, computed
    once here (for the state hash) and reused for the match after the append (``fold_decided``).
    ``rules`` is None when the events hold no rules event (the rules state is unchanged)."""

    events: list[Event]
    rules: Any = None


def new_match_events(*args: Any, **kwargs: Any) -> list[Event]:
    """The events of ``open_match`` (same arguments; raises as it does)."""
    return open_match(*args, **kwargs).events


def open_match(
    match_id: str,
    mode: str,
    players: Sequence[Mapping[str, Any]],
    seed: int,
    today: str,
    *,
    bot: str | None = None,
    request_id: str | None = None,
    options: Mapping[str, Any] | None = None,
    game: str = DEFAULT_GAME,
    bots: Sequence[str] = (),
) -> Decision:
    """MatchCreated + the game's opening events (``IllegalSetup`` of the game for a bad setup,
    ``UnknownGame``). A game resolved at once ends here: its MatchEnded is enriched as usual.

    ``options``: the game's own (Arcana: the operator's ``first``, ``shuffle`` and ``arcana``);
    ``today`` (ISO date) is the day the match starts. ``bots``: every bot seated (``bot``, the
    first, when not given).
    """
    g = game_named(game)
    seats = tuple(Seat(str(p["id"]), tuple(p["deck"])) for p in players)
    clean = {k: v for k, v in (options or {}).items() if v is not None}
    opening = g.setup(Setup(match_id, seed, seats, today, clean))
    seated_bots = list(bots) or ([bot] if bot else [])
    bot = bot or (seated_bots[0] if seated_bots else None)
    created = MatchCreated(
        match_id, mode, [s.id for s in seats], bot, request_id, game=game, bots=seated_bots
    )
    m = Match(match_id, mode, tuple(created.players), bot, _EPOCH, game=game, bots=tuple(seated_bots))
    played, rules = _played(m, g, None, opening)
    events: list[Event] = [(MATCH_CREATED, created.data()), *played]
    return Decision(_with_hash(g, events, rules), rules)


def rejected_request_events(
    match_id: str,
    request_id: str,
    mode: Any,
    players: Any,
    reason: str,
    message: str,
    problems: Any,
    game: str = DEFAULT_GAME,
) -> list[Event]:
    """The MatchRequestRejected of a request that cannot start a match (its players reduced to ids)."""
    ids = [p.get("id") if isinstance(p, Mapping) else p for p in players or []]
    rejected = MatchRequestRejected(match_id, request_id, mode, ids, reason, message, problems, game=game)
    return [(MATCH_REQUEST_REJECTED, rejected.data())]


def decide_command(m: Match, command: Mapping[str, Any]) -> list[Event]:
    """The events of ``decide_match`` (raises as it does)."""
    return decide_match(m, command).events


def decide_match(m: Match, command: Mapping[str, Any]) -> Decision:
    """What a command causes: a rules command (player or system: ``timeout``, ``forfeit``) or the
    service's ``disconnect``/``reconnect``. Raises the game's ``IllegalCommand`` subclasses
    (``MatchOver`` when the match is not running), and ValueError for a ``reconnect`` of a player
    who is not disconnected."""
    kind = command.get("type")
    if kind == "disconnect":
        gone = PlayerDisconnected(command["player"], command["since"])
        return Decision([(PLAYER_DISCONNECTED, gone.data())])
    if kind == "reconnect":
        return Decision([_reconnected(m, command["player"])])
    if m.rules is None or m.rejected:
        raise MatchOver("the match is not running")
    g = game_of(m)
    events, after = _played(m, g, m.rules, g.decide(m.rules, command))
    return Decision(_with_hash(g, events, after), after)


def decide_due(
    m: Match, now: datetime, last_seen: Mapping[str, datetime], limit: int
) -> tuple[Decision, list[dict[str, Any]]] | None:
    """Every system command due at ``now`` (``next_due``: reconnections, forfeits, disconnections, the
    timeout), each decided on the match the ones before it leave, at most ``limit``: all their
    events in one ``Decision`` (one append; each rules batch keeps its state hash), and the commands.
    None when nothing is due. Raises as ``decide_match`` does."""
    events: list[Event] = []
    rules: Any = None
    commands: list[dict[str, Any]] = []
    current = m
    while len(commands) < limit:
        command = next_due(current, now, last_seen)
        if command is None:
            break
        decided = decide_match(current, command)
        rows = [(kind, data, now, current.version + i) for i, (kind, data) in enumerate(decided.events, 1)]
        current = fold_decided(current, rows, decided.rules)
        events += decided.events
        rules = decided.rules or rules
        commands.append(command)
    return (Decision(events, rules), commands) if commands else None


def decide_for(m: Match, player: str, command: Mapping[str, Any]) -> Decision:
    """A player's own command (``player`` set on it), preceded by their PlayerReconnected when they are
    marked disconnected. A command that is not one of the match's game's shapes is refused first
    (``shapes.MalformedCommand``: the API's input schema is the union of every game's). Raises as
    ``decide_match`` does."""
    if not m.ended:
        shapes.check(game_of(m).commands, command)
    decided = decide_match(m, {**command, "player": player})
    if player not in m.disconnected:
        return decided
    return Decision([_reconnected(m, player), *decided.events], decided.rules)


def with_reconnect(m: Match, player: str, events: list[Event]) -> list[Event]:
    """``events`` preceded by the player's PlayerReconnected when they are marked disconnected."""
    if player not in m.disconnected:
        return events
    return [_reconnected(m, player), *events]


def _reconnected(m: Match, player: str) -> Event:
    """The PlayerReconnected of ``player``; its ``since`` is when they went silent (the ``since`` of the
    PlayerDisconnected it ends). Raises ValueError when they are not marked disconnected."""
    away = m.disconnected.get(player)
    if away is None:
        raise ValueError(f"{player} is not disconnected from match {m.match_id}")
    return (PLAYER_RECONNECTED, PlayerReconnected(player, away.isoformat()).data())


_EPOCH = datetime.fromtimestamp(0, UTC)  # a match's creation time plays no part in its MatchEnded


def _played(m: Match, g: Game, before: Any, produced: list[dict[str, Any]]) -> tuple[list[Event], Any]:
    """The game's events about to be stored, and the game state after them. When they end the match
    its ``MatchEnded`` is enriched, and the state is folded again from ``before`` with the events as
    they are stored (a game may keep its events in its state), so a replay finds the same hash."""
    after = _fold_rules(g, before, produced)
    events = [(e["type"], e) for e in produced]
    if g.result(after) is None:
        return events, after
    events = [_enriched_end(m, g, after, d) if t == END_EVENT else (t, d) for t, d in events]
    return events, _fold_rules(g, before, [d for _, d in events])


def _fold_rules(g: Game, state: Any, events: Iterable[Mapping[str, Any]]) -> Any:
    for e in events:
        state = g.evolve(state, e)
    return state


def _with_hash(g: Game, events: list[Event], state: Any) -> list[Event]:
    if events:
        kind, data = events[-1]
        events[-1] = (kind, {**data, HASH_KEY: g.state_hash(state)})
    return events


def _enriched_end(m: Match, g: Game, after: Any, data: Mapping[str, Any]) -> Event:
    """The game's MatchEnded (``type``, ``winner``, ``reason``) with the declared fields of the
    integration event ``events.MatchEnded`` (the same winner and reason), from ``Game.result``."""
    result = g.result(after)
    assert result is not None, "enriched only once the game has ended"
    ended = MatchEnded(
        winner=data["winner"],
        reason=data["reason"],
        match_id=m.match_id,
        mode=m.mode,
        players=list(m.players),
        loser=result.losers[0] if len(result.losers) == 1 else None,
        draw=result.draw,
        turns=result.turns,
        round=result.round,
        bot=m.bot,
        stats={p: dict(s) for p, s in result.stats.items()},
        game=m.game,
        placements=[list(group) for group in result.placements],
    )
    declared = {k: v for k, v in ended.data().items() if k != "verdict"}  # the service's, at the append
    return (END_EVENT, {**data, **declared})


def request_problem(mode: Any, players: Any, game: Any = DEFAULT_GAME) -> tuple[str, str, Any] | None:
    """Why a MatchRequested cannot start a match, as (reason, message, details), or None when it can."""
    try:
        g = game_named(game) if isinstance(game, str) else None
    except UnknownGame:
        g = None
    if g is None:
        return "invalid_game", "no such game", {"game": repr(game)}
    if mode not in REQUEST_MODES:
        return "invalid_mode", f"mode must be one of {', '.join(REQUEST_MODES)}", {"mode": repr(mode)}
    ok = (
        isinstance(players, list)
        and len(players) in g.seats
        and all(isinstance(p, Mapping) and isinstance(p.get("id"), str) and p["id"] for p in players)
    )
    if not ok or len({p["id"] for p in players}) != len(players):
        seats = " or ".join(str(n) for n in sorted(g.seats))
        return "invalid_players", f"players must be {_SEATS.get(seats, seats)} distinct {{id, deck}}", None
    problems = {}
    for p in players:
        deck = p.get("deck")
        found = g.deck_problems(deck) if isinstance(deck, list) else ["the deck is not a list of card ids"]
        if found:
            problems[p["id"]] = found
    if problems:
        who = ", ".join(sorted(problems))
        return (
            "invalid_deck",
            f"illegal deck of {who}: " + "; ".join(problems[next(iter(problems))]),
            problems,
        )
    return None


_SEATS = {"2": "two"}
