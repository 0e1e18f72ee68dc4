"""What one credit may pay at most, by the rule that produced it (docs/rules.md, "Fair play").

Economy pays other services' events; an event larger than the rule it claims to come from could
pay (a forged or buggy ``RewardGranted``) is never paid: the consumer parks it as a dead letter.
The ceilings are the largest reward of each rule: a quest (the hard quest's coins), a day of the
log-in streak (day 6's coins, or day 7's pack), a match (a win), the daily log-in; operator grants
up to a configured :class:`Ceiling` (``ARCANA_GRANT_MAX_*``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .values import DAILY_LOGIN_COINS, MATCH_WIN_COINS
from .wallet import Credit


@dataclass(frozen=True)
class Ceiling:
    """The most one credit may pay of each currency."""

    coins: int = 0
    dust: int = 0
    free_packs: int = 0

    def problems(self, credit: Credit) -> list[str]:
        """Every amount of ``credit`` above this ceiling (empty: within it)."""
        return [
            f"{name} {amount} above the ceiling of {limit}"
            for name, amount, limit in (
                ("coins", credit.coins, self.coins),
                ("dust", credit.dust, self.dust),
                ("free_packs", credit.free_packs, self.free_packs),
            )
            if amount > limit
        ]


QUEST_MAX_COINS: Final = 45  # a hard quest (easy 20, standard 30)
STREAK_MAX_COINS: Final = 100  # day 6 of the cycle
STREAK_MAX_PACKS: Final = 1  # day 7

RULE_CEILINGS: Final[dict[str, Ceiling]] = {
    "quest": Ceiling(coins=QUEST_MAX_COINS),
    "streak": Ceiling(coins=STREAK_MAX_COINS, free_packs=STREAK_MAX_PACKS),
    "match": Ceiling(coins=MATCH_WIN_COINS),
    "daily_login": Ceiling(coins=DAILY_LOGIN_COINS),
}


def reward_problems(player_id: str, reward_id: str, credit: Credit) -> list[str]:
    """Why a progression reward must not be paid: an id not of the form its rule produces for this
    player (``<reason>:<player>:…``), or an amount above what that rule can pay."""
    ceiling = RULE_CEILINGS.get(credit.reason)
    if ceiling is None:
        return [f"no rule pays a reward of reason {credit.reason!r}"]
    problems = ceiling.problems(credit)
    if not reward_id.startswith(f"{credit.reason}:{player_id}:"):
        problems.append(f"reward id {reward_id!r} is not a {credit.reason} reward of player {player_id}")
    return problems
