"""The match as the service sees it: the rules state plus what the service adds (mode, bot, timers,
presence), folded from the stored events of one stream ``match-<id>``. Pure: standard library and
``libs.rules`` only.

Stored events. Every rules event is stored with its own type and the event dict as data; the last
event of every appended batch also carries ``state_hash`` (the rules state after the batch), so a
replay that drifts is detected (``replay_problems``). The service adds ``MatchCreated`` (first
event: mode, player ids, bot, request id), ``PlayerDisconnected``, ``PlayerReconnected`` and, for a
refused ``MatchRequested``, ``MatchRequestRejected`` (the only event of its stream). The rules'
``MatchEnded`` is stored enriched for other services: loser, draw, mode, turns, per-player stats.

Timers and presence are facts of the events: the mulligan deadline is ``MatchStarted``'s time + 30
s, a turn's is its ``TurnStarted``'s time + 60 s; a player is disconnected 20 s after their last
request (or the match's creation) and forfeits 120 s after that moment (``since`` of
``PlayerDisconnected``). ``next_due`` says which system command is due at a given time.
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
    MULLIGAN_SECONDS,
    PLAYER_COMMANDS,
    PLAYER_DISCONNECTED,
    PLAYER_RECONNECTED,
    RULES_EVENTS,
    SERVICE_EVENTS,
    TURN_SECONDS,
    Event,
    Match,
    NotAPlayer,
    Row,
    evolve_match,
    fold_decided,
    fold_match,
    replay_problems,
)
from .timers import awaiting, bot_command, deadline, next_due
from .visibility import SPECTATOR, client_event, live_event, player_commands, player_view

__all__ = [
    "DISCONNECT_FORFEIT_SECONDS",
    "HASH_KEY",
    "IDLE_SECONDS",
    "MATCH_CREATED",
    "MATCH_REQUEST_REJECTED",
    "MODES",
    "MULLIGAN_SECONDS",
    "PLAYER_COMMANDS",
    "PLAYER_DISCONNECTED",
    "PLAYER_RECONNECTED",
    "REQUEST_MODES",
    "RULES_EVENTS",
    "SERVICE_EVENTS",
    "SPECTATOR",
    "TURN_SECONDS",
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
    "evolve_match",
    "fold_decided",
    "fold_match",
    "live_event",
    "new_match_events",
    "next_due",
    "open_match",
    "player_commands",
    "player_view",
    "rejected_request_events",
    "replay_problems",
    "request_problem",
    "with_reconnect",
]
