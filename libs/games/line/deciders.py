"""`decide`: the line has no turns, so a well-formed command of a player is always refused."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import FightOver, InvalidCommand, UnknownPlayer
from .resolution import Event
from .state import State


def decide(state: State, command: Any) -> list[Event]:
    """Never returns: `start` already resolved the whole fight.

    Raises `InvalidCommand` for a command that is not a mapping with a string `type` and `player`,
    `UnknownPlayer` for a player not in the fight, `FightOver` otherwise.
    """
    if not isinstance(command, Mapping) or not isinstance(command.get("type"), str):
        raise InvalidCommand("a command is a mapping with a string type")
    player = command.get("player")
    if not isinstance(player, str):
        raise InvalidCommand("a command names its player")
    if player not in state.pids:
        raise UnknownPlayer(f"{player!r} is not a player of this fight")
    raise FightOver("the fight was resolved when it started: a line takes no commands")


def legal_commands(state: State, player_id: str) -> list[dict[str, Any]]:
    """Exactly what `decide` accepts: nothing, ever."""
    return []
