"""Deadlines, who the match waits for, presence, and which system command is due when.

The game says what it waits for (``Game.waits``: who, for how long, and the timeout command); the
service says what presence requires of every game: 20 s without a request is a disconnection, 120 s
disconnected is a forfeit (``Game.forfeit``)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from .model import DISCONNECT_FORFEIT_SECONDS, IDLE_SECONDS, Match, due_at, game_of, waits


def deadline(m: Match) -> datetime | None:
    """When the first of the match's waits times out (None when no timer runs)."""
    if m.ended:
        return None
    dues = [d for d in (due_at(m, w) for w in waits(m)) if d is not None]
    return min(dues) if dues else None


def awaiting(m: Match) -> list[str]:
    """The players the match waits for now, in the game's order (none once it has ended)."""
    if m.ended:
        return []
    return list(dict.fromkeys(w.player for w in waits(m)))


def watched(m: Match) -> list[str]:
    """The humans still playing (a player who forfeited a match that goes on is out)."""
    if m.rules is None:
        return m.humans()
    playing = set(game_of(m).playing(m.rules))
    return [p for p in m.humans() if p in playing]


def next_due(m: Match, now: datetime, last_seen: Mapping[str, datetime]) -> dict[str, Any] | None:
    """The first system command due at ``now``, or None. In order: a disconnected player who made a
    request since is reconnected; one disconnected for 120 s forfeits; a player silent for 20 s is
    disconnected; an expired wait times out. The bot is never disconnected."""
    if m.ended:
        return None
    for player in m.humans():
        since = m.disconnected.get(player)
        seen = last_seen.get(player)
        if since is not None and seen is not None and seen > since:
            return {"type": "reconnect", "player": player}
    playing = watched(m)
    if m.rules is not None:
        gone = sorted((since, m.players.index(p), p) for p, since in m.disconnected.items() if p in playing)
        for since, _, player in gone:  # all gone for 120 s: the one who left first forfeits
            if now >= since + timedelta(seconds=DISCONNECT_FORFEIT_SECONDS):
                return game_of(m).forfeit(player, "disconnect")
    for player in playing:
        if player in m.disconnected:
            continue
        seen = max(m.created_at, last_seen.get(player, m.created_at))
        if now >= seen + timedelta(seconds=IDLE_SECONDS):
            return {
                "type": "disconnect",
                "player": player,
                "since": (seen + timedelta(seconds=IDLE_SECONDS)).isoformat(),
            }
    for wait in waits(m):
        due = due_at(m, wait)
        if wait.timeout is not None and due is not None and now >= due:
            return dict(wait.timeout)
    return None


def bot_command(m: Match, rng: random.Random) -> dict[str, Any] | None:
    """The next command of the first bot the match waits for (a practice match may seat several),
    else None."""
    if m.bot is None or m.rules is None:
        return None
    for bot in m.bots_awaited(awaiting(m)):
        command = game_of(m).bot(m.rules, bot, rng)
        if command is not None:
            return command
    return None
