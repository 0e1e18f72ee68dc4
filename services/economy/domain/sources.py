"""What a progression reward pays for, as economy saw it: each ``RewardGranted`` must name a fact
economy consumed before it (a ``QuestCompleted``, a ``StreakDayKept``: progression appends each one
to the same stream just before its reward, so the topic delivers it first) and pay what that fact
says, else it is never paid (issue 34, finding 3: a reward id of the right shape was enough)."""

from __future__ import annotations

from dataclasses import dataclass

from libs.contracts import QuestCompleted, RewardGranted, StreakDayKept


@dataclass(frozen=True)
class RewardSource:
    """A fact that earns a reward: the reward id progression gives it, whose it is, what it pays."""

    reward_id: str
    player_id: str
    coins: int
    packs: int


def of_quest(completed: QuestCompleted) -> RewardSource:
    """``quest:<player>:<day>:<quest_id>``: the quest's coins, no pack."""
    reward_id = f"quest:{completed.player_id}:{completed.day}:{completed.quest_id}"
    return RewardSource(reward_id, completed.player_id, completed.coins, 0)


def of_streak(kept: StreakDayKept) -> RewardSource:
    """``streak:<player>:<day>``: the streak day's coins and packs."""
    return RewardSource(f"streak:{kept.player_id}:{kept.day}", kept.player_id, kept.coins, kept.packs)


def source_problems(granted: RewardGranted, found: RewardSource | None) -> list[str]:
    """Why ``granted`` does not match the fact economy kept for its reward id (``found``; None: no
    such fact was seen). Empty: it pays exactly what its source earned."""
    if found is None:
        return [f"no quest completed or streak day kept earns reward {granted.reward_id!r}"]
    paid = (granted.player_id, granted.coins, granted.packs)
    earned = (found.player_id, found.coins, found.packs)
    return [] if paid == earned else [f"reward {granted.reward_id!r} pays {paid}, its source earned {earned}"]
