"""Deadlines, who the match waits for, presence, and which system command is due when."""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from libs.rules.bots import greedy_bot

from .model import DISCONNECT_FORFEIT_SECONDS, IDLE_SECONDS, MULLIGAN_SECONDS, TURN_SECONDS, Match


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
        gone = sorted(
            (since, m.players.index(p), p) for p, since in m.disconnected.items() if p in m.humans()
        )
        for since, _, player in gone:  # both gone for 120 s: the one who left first forfeits
            if now >= since + timedelta(seconds=DISCONNECT_FORFEIT_SECONDS):
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
