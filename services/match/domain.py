"""The match as the service sees it: the rules state plus what the service adds (mode, bot, timers,
presence), folded from the stored events of one stream ``match-<id>``. Pure: standard library and
``libs.rules`` only.

Stored events. Every rules event is stored with its own type and the event dict as data; the last
event of every appended batch also carries ``state_hash`` (the rules state after the batch), so a
replay that drifts is detected (``replay_problems``). The service adds ``MatchCreated`` (first
event: mode, player ids, bot, request id), ``PlayerDisconnected``, ``PlayerReconnected`` and, for a
refused ``MatchRequested``, ``MatchRequestRejected`` (the only event of its stream). The rules'
``MatchEnded`` is stored enriched for other services: loser, draw, mode, turns, per-player stats.

Timers and presence are facts of the events: the mulligan deadline is ``MatchStarted``'s time + 30
s, a turn's is its ``TurnStarted``'s time + 60 s; a player is disconnected 20 s after their last
request (or the match's creation) and forfeits 120 s after that moment (``since`` of
``PlayerDisconnected``). ``next_due`` says which system command is due at a given time.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from libs.rules import (
    Code,
    RuleViolation,
    State,
    decide,
    evolve,
    legal_commands,
    start,
    state_hash,
    summary_stats,
    view,
    visible_event,
)
from libs.rules.bots import greedy_bot
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


# ------------------------------------------------------------------------------------------- folding


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
    rules = evolve(m.rules, data)
    changes: dict[str, Any] = {"version": version, "rules": rules}
    if kind == "MatchStarted":
        changes["started_at"] = at
    elif kind == "TurnStarted":
        changes["turn_started_at"] = at
    return replace(m, **changes)


def fold_match(
    events: Iterable[tuple[str, Mapping[str, Any], datetime, int]], m: Match | None = None
) -> Match:
    for kind, data, at, version in events:
        m = evolve_match(m, kind, data, at, version)
    if m is None:
        raise ValueError("no events")
    return m


def replay_problems(events: Iterable[tuple[str, Mapping[str, Any], datetime, int]]) -> list[str]:
    """Versions whose stored ``state_hash`` differs from the replayed state's (empty: no drift)."""
    problems = []
    m: Match | None = None
    for kind, data, at, version in events:
        m = evolve_match(m, kind, data, at, version)
        stored = data.get(HASH_KEY)
        if stored is not None and (m.rules is None or state_hash(m.rules) != stored):
            problems.append(f"version {version}: stored hash {stored} differs from the replayed state")
    return problems


# ------------------------------------------------------------------------------------------ creating


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


# ------------------------------------------------------------------------------------------ deciding


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


# ------------------------------------------------------------------------------------ timers, presence


def deadline(m: Match) -> datetime | None:
    """When the current mulligan or turn times out (None when no timer runs)."""
    rules = m.rules
    if rules is None or m.ended:
        return None
    if rules.phase == "mulligan":
        assert m.started_at is not None
        return m.started_at + timedelta(seconds=MULLIGAN_SECONDS)
    assert m.turn_started_at is not None
    return m.turn_started_at + timedelta(seconds=TURN_SECONDS)


def awaiting(m: Match) -> list[str]:
    """The players the match waits for now: the undecided ones at the mulligan, else the active one."""
    rules = m.rules
    if rules is None or m.ended:
        return []
    if rules.phase == "mulligan":
        return [p.id for p in rules.players if not p.mulligan_done]
    return [rules.pids[rules.active]]


def next_due(m: Match, now: datetime, last_seen: Mapping[str, datetime]) -> dict[str, Any] | None:
    """The first system command due at ``now``, or None. In order: a disconnected player who made a
    request since is reconnected; one disconnected for 120 s forfeits; a player silent for 20 s is
    disconnected; an expired mulligan or turn times out. The bot is never disconnected."""
    if m.ended:
        return None
    for player in m.humans():
        since = m.disconnected.get(player)
        seen = last_seen.get(player)
        if since is not None and seen is not None and seen > since:
            return {"type": "reconnect", "player": player}
    if m.rules is not None:
        for player in m.humans():
            since = m.disconnected.get(player)
            if since is not None and now >= since + timedelta(seconds=DISCONNECT_FORFEIT_SECONDS):
                return {"type": "forfeit", "player": player, "reason": "disconnect"}
    for player in m.humans():
        if player in m.disconnected:
            continue
        seen = max(m.created_at, last_seen.get(player, m.created_at))
        if now >= seen + timedelta(seconds=IDLE_SECONDS):
            return {
                "type": "disconnect",
                "player": player,
                "since": (seen + timedelta(seconds=IDLE_SECONDS)).isoformat(),
            }
    due = deadline(m)
    if due is not None and now >= due:
        return {"type": "timeout", "player": awaiting(m)[0]}
    return None


def bot_command(m: Match, rng: random.Random) -> dict[str, Any] | None:
    """The bot's next command when the match waits for it, else None."""
    if m.bot is None or m.rules is None or m.bot not in awaiting(m):
        return None
    return greedy_bot(m.rules, m.bot, rng)


# ------------------------------------------------------------------------------------------ visibility


def client_event(kind: str, data: Mapping[str, Any], player: str) -> dict[str, Any] | None:
    """A stored event as ``player`` may see it (None: wholly secret). Hashes, seeds, decks, deck
    orders and the opponent's draws never pass."""
    body = {k: v for k, v in data.items() if k != HASH_KEY}
    if kind in RULES_EVENTS:
        body.setdefault("type", kind)
        return visible_event(body, player)
    if kind == MATCH_CREATED:
        return {"type": kind, "match_id": body["match_id"], "mode": body["mode"], "players": body["players"]}
    if kind in (PLAYER_DISCONNECTED, PLAYER_RECONNECTED):
        return {"type": kind, **body}
    return None


def player_view(m: Match, player: str) -> dict[str, Any]:
    """What GET /v1/matches/{id} answers: the rules' view for ``player`` plus the match's version,
    mode, deadline, who the timer waits for and who is connected. Never seeds, decks or orders."""
    if m.rules is None:
        raise NotAPlayer(player)
    due = deadline(m)
    return {
        **view(m.rules, player),
        "version": m.version,
        "mode": m.mode,
        "players": list(m.players),
        "bot": m.bot,
        "deadline": due.isoformat() if due else None,
        "awaiting": awaiting(m),
        "connected": {p: p not in m.disconnected for p in m.players},
    }


def player_commands(m: Match, player: str) -> list[dict[str, Any]]:
    """The legal commands of ``player`` as they are posted (without the player field)."""
    if m.rules is None:
        return []
    return [{k: v for k, v in c.items() if k != "player"} for c in legal_commands(m.rules, player)]


REQUEST_MODES = ("ranked", "casual")


def request_problem(mode: Any, players: Any) -> tuple[str, str, Any] | None:
    """Why a MatchRequested cannot start a match, as (reason, message, details), or None when it can."""
    from libs.rules import deck_problems

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
