"""`decide`: a command checked against the state and turned into the events it causes."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .combat import decide_attack
from .constants import Cmd
from .endings import decide_concede, decide_forfeit, decide_timeout
from .errors import InvalidCommand, MatchOver, UnknownPlayer
from .mulligan import decide_mulligan
from .names import ENDED, Command, Event
from .plays import decide_play
from .state import State
from .turns import decide_end_turn

_DECIDERS: dict[str, Callable[[State, int, Command], list[Event]]] = {
    Cmd.MULLIGAN.value: decide_mulligan,
    Cmd.PLAY.value: decide_play,
    Cmd.ATTACK.value: decide_attack,
    Cmd.END_TURN.value: decide_end_turn,
    Cmd.TIMEOUT.value: decide_timeout,
    Cmd.CONCEDE.value: decide_concede,
    Cmd.FORFEIT.value: decide_forfeit,
}


def decide(state: State, command: Command) -> list[Event]:
    """The events `command` causes in `state`; raises a `RuleViolation` subclass (one per kind of refusal,
    `errors.py`) if the rules refuse it.

    Checked in this order: a well-formed command (`invalid_command`), a match still running (`match_over`), a
    player of the match (`unknown_player`), then the command's own rules. `concede`, `timeout` and `forfeit`
    are accepted from either player at any time the match runs (a turn timeout only for the active player).
    """
    if not isinstance(command, Mapping):
        raise InvalidCommand("a command is a mapping")
    kind = command.get("type")
    handler = _DECIDERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise InvalidCommand(f"unknown command type {command.get('type')!r}")
    if state.phase == ENDED:
        raise MatchOver("the match is over")
    pid = command.get("player")
    if pid == state.pids[0]:
        index = 0
    elif pid == state.pids[1]:
        index = 1
    else:
        raise UnknownPlayer(f"{pid!r} is not a player of this match")
    return handler(state, index, command)
