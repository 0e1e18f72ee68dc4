"""A player's progress on a game's own track (the line's, seed 001: its arena XP): the fold of
``<track>-<player>`` (``line-<player>``).

A track is apart from the season pass: a match of a game whose offer names a track
(``libs.games.offer.Progress.track``) gives its ``track_xp`` (the line's arena XP: 20) to each player
whose verdict has ``xp`` (the line: the winner of a training or casual fight; ranked gives none).
Every finished practice match of a game whose training battles unlock ranked is a training battle of
its human player, won or lost (the line's 3 unlock its ranked queue, which matchmaking counts itself).
Each match counts once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from services.progression.domain.facts import MatchResult
from services.progression.events import ArenaXpEarned, Event, TrainingBattleFought


def track_stream(track: str, player: str) -> str:
    return f"{track}-{player}"


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
    """What ``match`` gives the player on its game's track: a training battle (practice), the track's
    XP (their verdict has ``xp``); nothing for a match already counted or of a game without a track."""
    player = state.player_id
    if match.match_id in state.matches or match.progress.track is None:
        return []
    events: list[Event] = []
    if match.training_battle_for(player):
        battles = state.training_battles + 1
        events.append(TrainingBattleFought(player, match.match_id, match.won(player), battles))
    if match.counts_for(player):
        xp = match.progress.track_xp
        events.append(ArenaXpEarned(player, match.match_id, xp, state.arena_xp + xp))
    return events
