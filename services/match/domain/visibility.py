"""What a player may see: events, the view of the match, their legal commands. The game hides its
own secrets (``Game.view``, ``Game.visible_event``); the service hides the state hash (a hash of
the full state would let guesses of hidden cards be checked)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from libs.games.registry import DEFAULT_GAME

from .model import (
    HASH_KEY,
    MATCH_CREATED,
    MATCH_REQUEST_REJECTED,
    PLAYER_DISCONNECTED,
    PLAYER_RECONNECTED,
    SERVICE_EVENTS,
    Match,
    NotAPlayer,
    game_named,
    game_of,
)
from .timers import awaiting, deadline

SPECTATOR = None  # the viewer of the public form of an event (``Game.visible_event``)


def client_event(
    kind: str, data: Mapping[str, Any], player: str, game: str = DEFAULT_GAME
) -> dict[str, Any] | None:
    """A stored event of a match of ``game`` as ``player`` may see it (None: wholly secret)."""
    body = {k: v for k, v in data.items() if k != HASH_KEY}
    if kind not in SERVICE_EVENTS:
        body.setdefault("type", kind)
        return game_named(game).visible_event(body, player)
    if kind == MATCH_CREATED:
        return {"type": kind, "match_id": body["match_id"], "mode": body["mode"], "players": body["players"]}
    if kind in (PLAYER_DISCONNECTED, PLAYER_RECONNECTED):
        return {"type": kind, **body}
    return None


def live_event(kind: str, data: Mapping[str, Any], game: str = DEFAULT_GAME) -> dict[str, Any] | None:
    """A stored event as ``arcana.match.events`` carries it while matches run (None: not at all):
    what a spectator may see. The game's events pass its ``visible_event`` for no viewer; the
    service's own events pass whole; no state hash."""
    body = {k: v for k, v in data.items() if k != HASH_KEY}
    if kind not in SERVICE_EVENTS:
        seen = game_named(game).visible_event({**body, "type": kind}, SPECTATOR)
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
    return body


def player_view(m: Match, player: str) -> dict[str, Any]:
    """What GET /v1/matches/{id} answers: the game's view for ``player`` plus the match's game,
    version, mode, deadline, who the match waits for and who is connected."""
    if m.rules is None:
        raise NotAPlayer(player)
    due = deadline(m)
    return {
        **game_of(m).view(m.rules, player),
        "match_id": m.match_id,
        "game": m.game,
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
    if m.rules is None or m.ended:
        return []
    return game_of(m).legal_commands(m.rules, player)
