"""The purposes of Arcana's random streams (``libs.games.sdk.rng.stream``): each names one independent
stream of a match's seed. Renaming one changes every match's draws of it."""

from __future__ import annotations

TURN_ORDER = "turn_order"
ARCANA = "arcana"
INSTANCE_IDS = "instance_ids"


def deck_purpose(player_index: int) -> str:
    return f"deck:{player_index}"


def mulligan_purpose(player_index: int) -> str:
    return f"mulligan:{player_index}"
