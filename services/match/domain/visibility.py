"""What a player may see: events, the view of the match, their legal commands."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from libs.rules import legal_commands, view, visible_event

from .model import (
    HASH_KEY,
    MATCH_CREATED,
    MATCH_REQUEST_REJECTED,
    PLAYER_DISCONNECTED,
    PLAYER_RECONNECTED,
    RULES_EVENTS,
    Match,
    NotAPlayer,
)
from .timers import awaiting, deadline


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


SPECTATOR = "spectator"  # never a player's id (UUIDs, `bot-<uuid>`): sees only what is public


def live_event(kind: str, data: Mapping[str, Any]) -> dict[str, Any] | None:
    """A stored event as ``arcana.match.events`` carries it while matches run (None: not at all):
    what a spectator may see. The rules' events pass ``visible_event`` for a non-player (no seed,
    deck lists, deck orders or drawn cards; ``DeckShuffled`` not at all); the service's own events
    pass whole; no state hash (a hash of the full state would let guesses of hidden cards be
    checked); events of unknown kinds do not pass."""
    body = {k: v for k, v in data.items() if k != HASH_KEY}
    if kind in RULES_EVENTS:
        seen = visible_event({**body, "type": kind}, SPECTATOR)
        if seen is not None and "type" not in data:
            seen.pop("type", None)
        return seen
    if kind == MATCH_REQUEST_REJECTED:
        players = body.get("players")
        ids = [
            p.get("id") if isinstance(p, Mapping) else p
            for p in (players if isinstance(players, list) else [])
        ]
        return {**body, "players": [p for p in ids if isinstance(p, str)]}
    if kind in (MATCH_CREATED, PLAYER_DISCONNECTED, PLAYER_RECONNECTED):
        return body
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
    commands = legal_commands(m.rules, player)  # new dicts: dropping the field in place is safe
    for c in commands:
        del c["player"]
    return commands
