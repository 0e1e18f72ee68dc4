"""Daily quests of one player and one UTC day: offer, swap, progress from matches, completion.

State is the fold of the stream ``quests-<player>-<day>``. Random draws take a ``seed`` chosen by
the caller and are written into the event, so replay never draws again.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field

from services.progression.domain.catalog import DIFFICULTIES, QUESTS, Quest, pool_of
from services.progression.domain.errors import QuestAlreadyCompleted, QuestNotOffered, SwapAlreadyUsed
from services.progression.domain.facts import MatchResult
from services.progression.events import (
    Event,
    QuestCompleted,
    QuestProgressed,
    QuestsOffered,
    QuestSwapped,
    RewardGranted,
    quest_reward_id,
)


def quests_stream(player: str, day: str) -> str:
    return f"quests-{player}-{day}"


@dataclass
class QuestDay:
    """A player's quests of one day: the offered quest of each difficulty and its progress."""

    player_id: str
    day: str
    offered: dict[str, str] = field(default_factory=dict)  # difficulty -> quest id
    progress: dict[str, int] = field(default_factory=dict)
    completed: set[str] = field(default_factory=set)
    matches: set[str] = field(default_factory=set)  # match ids already counted
    swapped: bool = False
    version: int = 0

    @property
    def is_offered(self) -> bool:
        return bool(self.offered)

    def quests(self) -> list[Quest]:
        return [QUESTS[self.offered[d]] for d in DIFFICULTIES if d in self.offered]


def evolve(state: QuestDay, event: Event) -> QuestDay:
    if isinstance(event, QuestsOffered):
        state.offered = {QUESTS[q].difficulty: q for q in event.quests}
        state.progress = dict.fromkeys(event.quests, 0)
    elif isinstance(event, QuestSwapped):
        difficulty = QUESTS[event.quest_id].difficulty
        state.offered[difficulty] = event.replacement
        state.progress.pop(event.quest_id, None)
        state.progress[event.replacement] = 0
        state.swapped = True
    elif isinstance(event, QuestProgressed):
        state.progress[event.quest_id] = event.progress
        state.matches.add(event.match_id)
    elif isinstance(event, QuestCompleted):
        state.completed.add(event.quest_id)
    state.version += 1
    return state


def fold(player: str, day: str, events: Iterable[Event]) -> QuestDay:
    state = QuestDay(player, day)
    for event in events:
        evolve(state, event)
    return state


def offer(state: QuestDay, seed: int) -> list[Event]:
    """The day's offer (one quest per difficulty, drawn with ``seed``), or nothing if made already."""
    if state.is_offered:
        return []
    rng = random.Random(seed)
    picks = [rng.choice(pool_of(d)).id for d in DIFFICULTIES]
    return [QuestsOffered(state.player_id, state.day, seed, picks)]


def swap(state: QuestDay, quest_id: str, seed: int) -> list[Event]:
    """Swap ``quest_id`` for another of its difficulty, drawn with ``seed``.

    Raises ``QuestNotOffered`` (not among the day's quests), ``QuestAlreadyCompleted``,
    ``SwapAlreadyUsed`` (the day's one swap is spent).
    """
    if quest_id not in state.offered.values():
        raise QuestNotOffered(quest_id)
    if quest_id in state.completed:
        raise QuestAlreadyCompleted(quest_id)
    if state.swapped:
        raise SwapAlreadyUsed(state.day)
    candidates = [q.id for q in pool_of(QUESTS[quest_id].difficulty) if q.id != quest_id]
    replacement = random.Random(seed).choice(candidates)
    return [QuestSwapped(state.player_id, state.day, quest_id, replacement, seed)]


def progress(state: QuestDay, match: MatchResult) -> list[Event]:
    """What ``match`` does to the day's quests: progress, and completion with its reward, once.

    A match already counted, or one that does not count for this player (its verdict), changes nothing.
    """
    if match.match_id in state.matches or not match.counts_for(state.player_id):
        return []
    events: list[Event] = []
    for quest in state.quests():
        if quest.id in state.completed:
            continue
        amount = match.count(quest, state.player_id)
        if amount <= 0:
            continue
        now = min(quest.target, state.progress.get(quest.id, 0) + amount)
        events.append(QuestProgressed(state.player_id, state.day, quest.id, match.match_id, amount, now))
        if now >= quest.target:
            events += completion(state, quest)
    return events


def completion(state: QuestDay, quest: Quest) -> list[Event]:
    reward = RewardGranted(
        quest_reward_id(state.player_id, state.day, quest.id),
        state.player_id,
        quest.coins,
        0,
        "quest",
        {"quest_id": quest.id, "day": state.day},
    )
    return [QuestCompleted(state.player_id, state.day, quest.id, quest.coins, quest.xp), reward]
