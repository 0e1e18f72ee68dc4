"""What other services' events pay, and the source key that makes each payment happen once.

Source keys (unique per player; the credit's event id is derived from them):
``starter:<player>``, ``login:<player>:<YYYY-MM-DD>``, ``match:<match_id>:<player>``,
``reward:<reward_id>``, ``grant:<grant id>``, ``tournament:<tournament_id>:<player>``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime

from libs import fairplay
from libs.contracts import MatchEnded, RewardGranted
from libs.contracts.tournament import TournamentPlaceAwarded
from libs.games import registry

from .rewards import Reward, match_reward, place_of
from .values import DAILY_LOGIN_COINS
from .wallet import Credit, ShardCredit

REWARD_REASONS = ("quest", "streak")


@dataclass(frozen=True)
class PlayerCredit:
    """One player's credit decided from an event."""

    player_id: str
    credit: Credit


@dataclass(frozen=True)
class PlayerShards:
    """One player's shard credit decided from an event."""

    player_id: str
    credit: ShardCredit


def daily_login(player_id: str, logged_in_at: datetime) -> PlayerCredit:
    """50 coins for the UTC day of ``logged_in_at`` (paid once per day: the source is the day),
    whatever time zone the timestamp was read in."""
    day = logged_in_at.astimezone(UTC).date().isoformat()
    credit = Credit(
        f"login:{player_id}:{day}", "daily_login", coins=DAILY_LOGIN_COINS, earned_at=logged_in_at
    )
    return PlayerCredit(player_id, credit)


def match_credits(ended: MatchEnded, ended_at: datetime) -> list[PlayerCredit | PlayerShards]:
    """What a ``MatchEnded`` pays, to each player its verdict says it pays coins (``libs.fairplay``:
    the mode, the turns, repeat opponents, the daily limit of paying matches shared by every game; for
    an event without verdict, the rule of its time), by the rewards table (``rewards``): Arcana win
    60, loss 20, a draw 20 each; the line's shards; the arena 60 to the first placement group, 20 to
    every other place. Nothing to anyone else and nothing for a malformed event."""
    verdicts = fairplay.verdicts_of(ended.data(), registry.fair_play(ended.game))
    groups = ended.placement_groups()
    paid: list[PlayerCredit | PlayerShards] = []
    for player, verdict in verdicts.items():
        place = place_of(player, groups)
        reward = match_reward(ended.game, ended.mode, place, len(groups)) if place is not None else None
        if verdict.coins and reward is not None:
            paid.append(_match_credit(ended.match_id, player, reward, ended_at))
    return paid


def within_daily_limit(paid: PlayerCredit | PlayerShards, paid_today: int) -> bool:
    """Whether ``paid`` may be paid when ``paid_today`` other matches paid the player today: any credit
    but a match's, or a match's while fewer than ``DAILY_COIN_MATCHES`` did (every game's count)."""
    return paid.credit.reason != "match" or paid_today < fairplay.DAILY_COIN_MATCHES


def _match_credit(
    match_id: str, player: str, reward: Reward, ended_at: datetime
) -> PlayerCredit | PlayerShards:
    source = f"match:{match_id}:{player}"
    if reward.currency == "shards":
        earned_at = ended_at.astimezone(UTC).isoformat()
        return PlayerShards(player, ShardCredit(source, "match", reward.amount, earned_at, note=match_id))
    return PlayerCredit(
        player, Credit(source, "match", coins=reward.amount, note=match_id, earned_at=ended_at)
    )


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


def tournament_credit(awarded: TournamentPlaceAwarded, awarded_at: datetime) -> PlayerShards | None:
    """The shards a tournament place pays, once (source ``tournament:<id>:<player>``); None when the
    award is not exactly what the game's prize table pays for that place (in shards)."""
    offer = registry.offers().get(awarded.game)
    table = offer.tournament if offer is not None else None
    prize = table.prize(awarded.place) if table is not None else None
    if (
        prize is None
        or (prize.currency, prize.amount) != ("shards", awarded.amount)
        or awarded.currency != "shards"
    ):
        return None
    source = f"tournament:{awarded.tournament_id}:{awarded.player_id}"
    earned_at = awarded_at.astimezone(UTC).isoformat()
    return PlayerShards(
        awarded.player_id,
        ShardCredit(source, "tournament", awarded.amount, earned_at, note=awarded.tournament_id),
    )
