"""What other services' events pay, and the source key that makes each payment happen once.

Source keys (unique per player; the credit's event id is derived from them):
``starter:<player>``, ``login:<player>:<YYYY-MM-DD>``, ``match:<match_id>:<player>``,
``reward:<reward_id>``, ``grant:<grant id>``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from .values import DAILY_LOGIN_COINS, MATCH_LOSS_COINS, MATCH_WIN_COINS, MIN_PAYING_TURNS, PAYING_MODES
from .wallet import Credit

REWARD_REASONS = ("quest", "streak")


@dataclass(frozen=True)
class PlayerCredit:
    """One player's credit decided from an event."""

    player_id: str
    credit: Credit


def daily_login(player_id: str, logged_in_at: datetime) -> PlayerCredit:
    """50 coins for the UTC day of ``logged_in_at`` (paid once per day: the source is the day),
    whatever time zone the timestamp was read in."""
    day = logged_in_at.astimezone(UTC).date().isoformat()
    return PlayerCredit(player_id, Credit(f"login:{player_id}:{day}", "daily_login", coins=DAILY_LOGIN_COINS))


def match_credits(data: Mapping[str, Any]) -> list[PlayerCredit]:
    """The coins a ``MatchEnded`` pays: ranked or casual, 4 turns or more; win 60, loss 20, a draw
    20 each; nothing otherwise (practice, operator matches, short or malformed ones)."""
    players = data.get("players")
    turns = data.get("turns")
    if data.get("mode") not in PAYING_MODES or not isinstance(turns, int) or turns < MIN_PAYING_TURNS:
        return []
    if not isinstance(players, list) or len(players) != 2 or not all(isinstance(p, str) for p in players):
        return []
    match_id = str(data.get("match_id"))
    draw = bool(data.get("draw"))
    winner = data.get("winner")
    if not draw and winner not in players:
        return []
    return [
        PlayerCredit(
            p,
            Credit(
                f"match:{match_id}:{p}",
                "match",
                coins=MATCH_WIN_COINS if (not draw and p == winner) else MATCH_LOSS_COINS,
                note=match_id,
            ),
        )
        for p in players
    ]


def reward_credit(data: Mapping[str, Any]) -> PlayerCredit | None:
    """A progression ``RewardGranted``'s coins and packs (held free packs), or None when malformed.
    The credit's note is the reward's ``source`` (quest id or streak day, and the day) as JSON.
    Whether it may be paid at all: ``bounds.reward_problems``."""
    reward_id, player, reason = data.get("reward_id"), data.get("player_id"), data.get("reason")
    coins, packs = data.get("coins", 0) or 0, data.get("packs", 0) or 0
    ids_ok = isinstance(reward_id, str) and bool(reward_id) and isinstance(player, str)
    if not ids_ok or reason not in REWARD_REASONS:
        return None
    amounts_ok = isinstance(coins, int) and isinstance(packs, int) and coins >= 0 and packs >= 0
    if not amounts_ok or not (coins or packs):
        return None
    source = data.get("source")  # {"quest_id", "day"} or {"streak_day", "day"}
    note = json.dumps(source, sort_keys=True) if isinstance(source, dict) else str(source or reward_id)
    credit = Credit(f"reward:{reward_id}", reason, coins=coins, free_packs=packs, note=note)
    return PlayerCredit(str(player), credit)
