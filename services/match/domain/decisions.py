"""Deciding: the opening events of a match, the events a command causes (rules or presence), every
system command due at a moment, the enriched MatchEnded, and why a MatchRequested cannot start a
match. The service's own events are built through their declared integration events
(``services.match.events``), so what is stored is what is declared."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from libs.rules import (
    Code,
    RuleViolation,
    State,
    decide,
    deck_problems,
    evolve,
    start,
    state_hash,
    summary_stats,
)
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
)
from .timers import next_due

REQUEST_MODES = ("ranked", "casual")


@dataclass(frozen=True)
class Decision:
    """What a command decided: the events about to be stored, and the rules state after them, computed
    once here (for the state hash) and reused for the match after the append (``fold_decided``).
    ``rules`` is None when the events hold no rules event (the rules state is unchanged)."""

    events: list[Event]
    rules: State | None = None


def new_match_events(
    match_id: str,
    mode: str,
    players: Sequence[Mapping[str, Any]],
    seed: int,
    today: str,
    *,
    bot: str | None = None,
    request_id: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> list[Event]:
    """The events of ``open_match`` (same arguments; raises ``RuleViolation`` for a bad setup)."""
    return open_match(
        match_id, mode, players, seed, today, bot=bot, request_id=request_id, options=options
    ).events


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
) -> Decision:
    """MatchCreated + the opening events of the rules (raises ``RuleViolation`` for a bad setup).

    ``options``: the operator's ``first``, ``shuffle`` and ``arcana``; ``today`` (ISO date) chooses
    the daily ascendant when no arcana are given.
    """
    setup: dict[str, Any] = {
        "match_id": match_id,
        "seed": seed,
        "players": [{"id": p["id"], "deck": list(p["deck"])} for p in players],
        "date": today,
    }
    setup.update({k: v for k, v in (options or {}).items() if v is not None})
    opening = start(setup)
    created = MatchCreated(match_id, mode, [p["id"] for p in players], bot, request_id)
    rules = _fold_rules(None, opening)
    events = [(MATCH_CREATED, created.data()), *((e["type"], e) for e in opening)]
    return Decision(_with_hash(events, rules), rules)


def rejected_request_events(
    match_id: str, request_id: str, mode: Any, players: Any, reason: str, message: str, problems: Any
) -> list[Event]:
    """The MatchRequestRejected of a request that cannot start a match (its players reduced to ids)."""
    ids = [p.get("id") if isinstance(p, Mapping) else p for p in players or []]
    rejected = MatchRequestRejected(match_id, request_id, mode, ids, reason, message, problems)
    return [(MATCH_REQUEST_REJECTED, rejected.data())]


def decide_command(m: Match, command: Mapping[str, Any]) -> list[Event]:
    """The events of ``decide_match`` (raises ``RuleViolation`` as it does)."""
    return decide_match(m, command).events


def decide_match(m: Match, command: Mapping[str, Any]) -> Decision:
    """What a command causes: a rules command (player or system: ``timeout``, ``forfeit``) or the
    service's ``disconnect``/``reconnect``. Raises ``RuleViolation`` as the rules do, and ValueError
    for a ``reconnect`` of a player who is not disconnected."""
    kind = command.get("type")
    if kind == "disconnect":
        gone = PlayerDisconnected(command["player"], command["since"])
        return Decision([(PLAYER_DISCONNECTED, gone.data())])
    if kind == "reconnect":
        return Decision([_reconnected(m, command["player"])])
    if m.rules is None or m.rejected:
        raise RuleViolation(Code.MATCH_OVER, "the match is not running")
    produced = decide(m.rules, command)
    after = _fold_rules(m.rules, produced)
    events = [(e["type"], e) for e in produced]
    if after.phase == "ended":
        events = [_enriched_end(m, after, d) if t == "MatchEnded" else (t, d) for t, d in events]
    return Decision(_with_hash(events, after), after)


def decide_due(
    m: Match, now: datetime, last_seen: Mapping[str, datetime], limit: int
) -> tuple[Decision, list[dict[str, Any]]] | None:
    """Every system command due at ``now`` (``next_due``: reconnections, forfeits, disconnections, the
    timeout), each decided on the match the ones before it leave, at most ``limit``: all their
    events in one ``Decision`` (one append; each rules batch keeps its state hash), and the commands.
    None when nothing is due. Raises ``RuleViolation`` as ``decide_match`` does."""
    events: list[Event] = []
    rules: State | None = None
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
    marked disconnected. Raises ``RuleViolation`` as the rules do."""
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


def _fold_rules(state: State | None, events: Iterable[Mapping[str, Any]]) -> State:
    for e in events:
        state = evolve(state, e)
    assert state is not None
    return state


def _with_hash(events: list[Event], state: State) -> list[Event]:
    if events:
        kind, data = events[-1]
        events[-1] = (kind, {**data, HASH_KEY: state_hash(state)})
    return events


def _enriched_end(m: Match, after: State, data: Mapping[str, Any]) -> Event:
    """The rules' MatchEnded (``type``, ``winner``, ``reason``) with the declared fields of the
    integration event ``events.MatchEnded`` (the same winner and reason)."""
    winner = data["winner"]
    draw = winner not in m.players
    ended = MatchEnded(
        winner=winner,
        reason=data["reason"],
        match_id=m.match_id,
        mode=m.mode,
        players=list(m.players),
        loser=None if draw else next(p for p in m.players if p != winner),
        draw=draw,
        turns=after.turn,
        round=after.round,
        bot=m.bot,
        stats=summary_stats(after)["players"],
    )
    declared = {k: v for k, v in ended.data().items() if k != "verdict"}  # the service's, at the append
    return ("MatchEnded", {**data, **declared})


def request_problem(mode: Any, players: Any) -> tuple[str, str, Any] | None:
    """Why a MatchRequested cannot start a match, as (reason, message, details), or None when it can."""
    if mode not in REQUEST_MODES:
        return "invalid_mode", f"mode must be one of {', '.join(REQUEST_MODES)}", {"mode": repr(mode)}
    ok = (
        isinstance(players, list)
        and len(players) == 2
        and all(isinstance(p, Mapping) and isinstance(p.get("id"), str) and p["id"] for p in players)
    )
    if not ok or players[0]["id"] == players[1]["id"]:
        return "invalid_players", "players must be two distinct {id, deck}", None
    problems = {}
    for p in players:
        deck = p.get("deck")
        found = deck_problems(deck) if isinstance(deck, list) else ["the deck is not a list of card ids"]
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
