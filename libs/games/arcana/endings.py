"""The commands that need no play: a timeout (system), a concession, a forfeit (system)."""

from __future__ import annotations

from .constants import FORFEIT_REASONS, MAX_TIMEOUTS, EndReason
from .effects import ended
from .errors import InvalidCommand, NotYourTurn
from .mulligan import mulligan
from .names import MULLIGAN, TURN_ENDED, TURN_TIMED_OUT, Command, Event
from .state import State
from .turns import begin_turn


def decide_timeout(state: State, index: int, command: Command) -> list[Event]:
    """At the mulligan, player `index` keeps the hand; in play their turn ends (the third in a row
    forfeits). Raises `RuleViolation` (`not_your_turn`) for the inactive player's turn."""
    if state.phase == MULLIGAN:
        return mulligan(state, index, [])
    if index != state.active:
        raise NotYourTurn("only the active player's turn can time out")
    pid = state.pids[index]
    count = state.players[index].timeouts + 1
    events: list[Event] = [{"type": TURN_TIMED_OUT, "player_id": pid, "timeouts": count}]
    if count >= MAX_TIMEOUTS:
        return [*events, ended(state.pids[1 - index], EndReason.TIMEOUTS.value)]
    events.append({"type": TURN_ENDED, "player_id": pid, "timed_out": True})
    return events + begin_turn(state, 1 - index, state.turn + 1)


def decide_concede(state: State, index: int, command: Command) -> list[Event]:
    """The opponent of `index` wins."""
    return [ended(state.pids[1 - index], EndReason.CONCEDE.value)]


def decide_forfeit(state: State, index: int, command: Command) -> list[Event]:
    """The opponent of `index` wins for `command["reason"]`; raises `RuleViolation` (`invalid_command`)
    for a reason not in FORFEIT_REASONS."""
    reason = command.get("reason")
    if not isinstance(reason, str) or reason not in FORFEIT_REASONS:
        raise InvalidCommand(f"forfeit reason is one of {sorted(FORFEIT_REASONS)}")
    return [ended(state.pids[1 - index], str(reason))]
