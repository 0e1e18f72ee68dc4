"""The match as the service sees it: the game's state plus what the service adds (game, mode, bot,
clocks, presence), folded from the stored events of one stream ``match-<id>``. Pure: standard
library, the game interface (``libs.games``) and the service's declared events only.

Stored events. Every game event is stored with its own type and the event dict as data; the last
event of every appended batch also carries ``state_hash`` (the game state after the batch), so a
replay that drifts is detected (``replay_problems``). The service adds ``MatchCreated`` (first
event: game, mode, player ids, bot, request id), ``PlayerDisconnected``, ``PlayerReconnected`` and,
for a refused ``MatchRequested``, ``MatchRequestRejected`` (the only event of its stream). The
game's ``MatchEnded`` is stored enriched for other services: game, loser, draw, mode, turns,
placements, per-player stats.

Timers and presence are facts of the events: each of the game's waits (``Game.waits``: Arcana's
mulligan, 30 s, and turn, 60 s) runs from the time of the stored event after which it appeared; a
player is disconnected 20 s after their last request (or the match's creation) and forfeits 120 s
after that moment (``since`` of ``PlayerDisconnected``). ``next_due`` says which system command is
due at a given time.
"""

from .decisions import (
    REQUEST_MODES,
    Decision,
    decide_command,
    decide_due,
    decide_for,
    decide_match,
    new_match_events,
    open_match,
    rejected_request_events,
    request_problem,
    with_reconnect,
)
from .model import (
    DISCONNECT_FORFEIT_SECONDS,
    HASH_KEY,
    IDLE_SECONDS,
    MATCH_CREATED,
    MATCH_REQUEST_REJECTED,
    MODES,
    PLAYER_DISCONNECTED,
    PLAYER_RECONNECTED,
    SERVICE_EVENTS,
    Event,
    Match,
    NotAPlayer,
    Row,
    due_at,
    evolve_match,
    fold_decided,
    fold_match,
    game_named,
    game_of,
    replay_problems,
    waits,
)
from .snapshots import restore as restore_match
from .snapshots import snapshot as snapshot_match
from .timers import awaiting, bot_command, deadline, next_due, watched
from .visibility import SPECTATOR, client_event, live_event, player_commands, player_view

__all__ = [
    "DISCONNECT_FORFEIT_SECONDS",
    "HASH_KEY",
    "IDLE_SECONDS",
    "MATCH_CREATED",
    "MATCH_REQUEST_REJECTED",
    "MODES",
    "PLAYER_DISCONNECTED",
    "PLAYER_RECONNECTED",
    "REQUEST_MODES",
    "SERVICE_EVENTS",
    "SPECTATOR",
    "Decision",
    "Event",
    "Match",
    "NotAPlayer",
    "Row",
    "awaiting",
    "bot_command",
    "client_event",
    "deadline",
    "decide_command",
    "decide_due",
    "decide_for",
    "decide_match",
    "due_at",
    "evolve_match",
    "fold_decided",
    "fold_match",
    "game_named",
    "game_of",
    "live_event",
    "new_match_events",
    "next_due",
    "open_match",
    "player_commands",
    "player_view",
    "rejected_request_events",
    "replay_problems",
    "request_problem",
    "restore_match",
    "snapshot_match",
    "waits",
    "watched",
    "with_reconnect",
]
