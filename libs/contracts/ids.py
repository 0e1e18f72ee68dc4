"""Ids several services must compute alike, without importing one another."""

from __future__ import annotations

import uuid

_MATCH_ID_NAMESPACE = uuid.UUID("6f1c7a52-2f0e-4d8e-9a51-3c0b7f4e8d21")


def match_id_for(request_id: str) -> str:
    """The id of the match a ``MatchRequested`` asks for: a UUID5 of its request id, so the same
    request can never make two matches (match creates it; matchmaking knows it in advance)."""
    return str(uuid.uuid5(_MATCH_ID_NAMESPACE, request_id))


def default_display_name(player_id: str) -> str:
    """The public name of a player who has not chosen one: ``Player-`` and the first 12 hex digits
    of their id (random in a UUID4), never anything of the log-in name. Accounts stores it at
    registration (and for older accounts in its migration 003); ratings shows it until accounts
    publishes a chosen one."""
    return "Player-" + str(player_id).replace("-", "")[:12]
