"""What progression's domain raises (the API maps each to a 4xx)."""

from __future__ import annotations


class ProgressionError(Exception):
    """Base of the domain's errors."""


class QuestNotOffered(ProgressionError):
    """The quest is not among the player's quests of that day."""


class SwapAlreadyUsed(ProgressionError):
    """The day's one swap has been used."""


class QuestAlreadyCompleted(ProgressionError):
    """A completed quest cannot be swapped."""


class RewardAlreadyGranted(ProgressionError):
    """A reward with this id is recorded already (raised at the store boundary from a unique key)."""
