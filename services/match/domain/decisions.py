"""Deciding: the opening events of a match, the events a command causes (rules or presence),
the enriched MatchEnded, and why a MatchRequested cannot start a match."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
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

from .model import (
    HASH_KEY,
    MATCH_CREATED,
    MATCH_REQUEST_REJECTED,
    PLAYER_DISCONNECTED,
    PLAYER_RECONNECTED,
    Event,
    Match,
)

REQUEST_MODES = ("ranked", "casual")


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
    created = {
        "match_id": match_id,
        "mode": mode,
        "players": [p["id"] for p in players],
        "bot": bot,
        "request_id": request_id,
    }
    return _with_hash(
        [(MATCH_CREATED, created), *((e["type"], e) for e in opening)], _fold_rules(None, opening)
    )


def rejected_request_events(
    match_id: str, request_id: str, mode: Any, players: Any, reason: str, message: str, problems: Any
) -> list[Event]:
    data = {
        "match_id": match_id,
        "request_id": request_id,
        "mode": mode,
        "players": [p.get("id") if isinstance(p, Mapping) else p for p in players or []],
        "reason": reason,
        "message": message,
        "problems": problems,
    }
    return [(MATCH_REQUEST_REJECTED, data)]


def decide_command(m: Match, command: Mapping[str, Any]) -> list[Event]:
    """The events a command causes: a rules command (player or system: ``timeout``, ``forfeit``) or
    the service's ``disconnect``/``reconnect``. Raises ``RuleViolation`` as the rules do."""
    kind = command.get("type")
    if kind == "disconnect":
        return [(PLAYER_DISCONNECTED, {"player": command["player"], "since": command["since"]})]
    if kind == "reconnect":
        away = m.disconnected.get(command["player"])
        return [
            (PLAYER_RECONNECTED, {"player": command["player"], "since": away.isoformat() if away else None})
        ]
    if m.rules is None or m.rejected:
        raise RuleViolation(Code.MATCH_OVER, "the match is not running")
    produced = decide(m.rules, command)
    after = _fold_rules(m.rules, produced)
    events = [(e["type"], e) for e in produced]
    if after.phase == "ended":
        events = [_enriched_end(m, after, d) if t == "MatchEnded" else (t, d) for t, d in events]
    return _with_hash(events, after)


def with_reconnect(m: Match, player: str, events: list[Event]) -> list[Event]:
    """``events`` preceded by the player's PlayerReconnected when they are marked disconnected."""
    if player not in m.disconnected:
        return events
    return decide_command(m, {"type": "reconnect", "player": player}) + events


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
    winner = data["winner"]
    draw = winner not in m.players
    stats = summary_stats(after)
    return (
        "MatchEnded",
        {
            **data,
            "match_id": m.match_id,
            "mode": m.mode,
            "players": list(m.players),
            "loser": None if draw else next(p for p in m.players if p != winner),
            "draw": draw,
            "turns": after.turn,
            "round": after.round,
            "bot": m.bot,
            "stats": stats["players"],
        },
    )


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
