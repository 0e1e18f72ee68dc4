"""What other services' events pay, and the source key that makes each payment happen once.

Source keys (unique per player; the credit's event id is derived from them):
``starter:<player>``, ``login:<player>:<YYYY-MM-DD>``, ``match:<match_id>:<player>``,
``reward:<reward_id>``, ``grant:<grant id>``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime

from libs import fairplay
from libs.contracts import MatchEnded, RewardGranted

from .values import DAILY_LOGIN_COINS, MATCH_LOSS_COINS, MATCH_WIN_COINS
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
    credit = Credit(
        f"login:{player_id}:{day}", "daily_login", coins=DAILY_LOGIN_COINS, earned_at=logged_in_at
    )
    return PlayerCredit(player_id, credit)


def match_credits(ended: MatchEnded, ended_at: datetime | None = None) -> list[PlayerCredit]:
    """The coins a ``MatchEnded`` pays, to each player its verdict says it pays (``libs.fairplay``:
    ranked or casual from turn 4, within the repeat-opponent rule and the daily coin limit; for an
    event without verdict, the rule of its time): win 60, loss 20, a draw 20 each; nothing to
    anyone else and nothing for a malformed event. Earned when the match ended (``ended_at``)."""
    verdicts = fairplay.verdicts_of(ended.data())
    match_id = ended.match_id
    winner = None if ended.draw else ended.winner
    return [
        PlayerCredit(
            p,
            Credit(
                f"match:{match_id}:{p}",
                "match",
                coins=MATCH_WIN_COINS if p == winner else MATCH_LOSS_COINS,
                note=match_id,
                earned_at=ended_at,
            ),
        )
        for p, v in verdicts.items()
        if v.coins
    ]


def reward_credit(granted: RewardGranted, granted_at: datetime | None = None) -> PlayerCredit | None:
    """A progression ``RewardGranted``'s coins and packs (held free packs), or None when it pays
    nothing valid. The credit's note is the reward's ``source`` (quest id or streak day, and the
    day) as JSON. Whether it may be paid at all: ``bounds.reward_problems``."""
    reward_id, player, reason = granted.reward_id, granted.player_id, granted.reason
    coins, packs = granted.coins, granted.packs
    if not reward_id or reason not in REWARD_REASONS:
        return None
    if coins < 0 or packs < 0 or not (coins or packs):
        return None
    note = json.dumps(granted.source, sort_keys=True)
    credit = Credit(
        f"reward:{reward_id}", reason, coins=coins, free_packs=packs, note=note, earned_at=granted_at
    )
    return PlayerCredit(player, credit)
