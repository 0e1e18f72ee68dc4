"""What a player is answered after a command or a poll: the events as they may see them, whom the
match waits for, and their legal commands when it waits for them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from libs.eventstore import RecordedEvent
from services.match import domain
from services.match.domain import Match


def visible_events(recorded: Iterable[RecordedEvent], m: Match, player: str) -> list[dict[str, Any]]:
    """Stored events of ``m`` as ``player`` may see them (wholly secret ones left out)."""
    out = []
    for e in recorded:
        seen = domain.client_event(e.type, e.data, player, m.game)
        if seen is not None:
            seen.pop("type", None)
            out.append(
                {"version": e.version, "type": e.type, "occurred_at": e.occurred_at.isoformat(), "data": seen}
            )
    return out


def next_move(m: Match, player: str) -> dict[str, Any]:
    """Whom ``m`` waits for, and ``player``'s legal commands (empty unless it waits for them)."""
    awaiting = domain.awaiting(m)
    return {
        "legal_commands": domain.player_commands(m, player) if player in awaiting else [],
        "awaiting": awaiting,
    }
