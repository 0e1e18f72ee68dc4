"""A player's progress in the line (seed 001): the fold of ``line-<player>``.

Arena XP is a track of its own, apart from the season pass: a line match gives ``ARENA_XP_WIN`` to
each player whose verdict has ``xp`` (the winner of a training or casual fight; ranked gives none).
Every finished line practice match is a training battle of its human player, won or lost (3 unlock
the line's ranked queue, which matchmaking counts itself). Each match counts once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Final

from services.progression.domain.facts import MatchResult
from services.progression.events import ArenaXpEarned, Event, TrainingBattleFought

ARENA_XP_WIN: Final = 20


def line_stream(player: str) -> str:
    return f"line-{player}"


@dataclass(frozen=True)
class LineProgress:
    player_id: str
    arena_xp: int = 0
    training_battles: int = 0
    matches: frozenset[str] = field(default_factory=frozenset)  # match ids already counted


def evolve(state: LineProgress, event: Event) -> LineProgress:
    """The progress after one event of its stream (a new state: snapshots keep the old ones)."""
    if isinstance(event, ArenaXpEarned):
        return replace(state, arena_xp=event.arena_xp, matches=state.matches | {event.match_id})
    if isinstance(event, TrainingBattleFought):
        counted = state.matches | {event.match_id}
        return replace(state, training_battles=event.training_battles, matches=counted)
    return state


def fold(player: str, events: Iterable[Event]) -> LineProgress:
    state = LineProgress(player)
    for event in events:
        state = evolve(state, event)
    return state


def record(state: LineProgress, match: MatchResult) -> list[Event]:
    """What a line ``match`` gives the player: a training battle (practice), arena XP (their verdict
    has ``xp``); nothing for a match already counted or of another game."""
    player = state.player_id
    if match.match_id in state.matches or match.game != "line":
        return []
    events: list[Event] = []
    if match.training_battle_for(player):
        battles = state.training_battles + 1
        events.append(TrainingBattleFought(player, match.match_id, match.won(player), battles))
    if match.counts_for(player):
        xp = ARENA_XP_WIN
        events.append(ArenaXpEarned(player, match.match_id, xp, state.arena_xp + xp))
    return events
