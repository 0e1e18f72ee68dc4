"""A player command checked against the shapes of one game's commands (``Game.commands``), before
``decide`` sees it. Pure.

The API's input schema is the union of every hosted game's commands by ``type`` (two games may give
one type different fields: Arcana's ``play`` and the arena's), so it can only be as strict as the
loosest of them; the service then checks a command against its own match's game here. The
problems come per field, in the words of the API's validation errors.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from libs.games import CommandShape, IllegalCommand, Param

ID_MAX = 40  # an ``id`` without its own bound
SERVICE_FIELDS = frozenset({"type", "player", "expected_version"})

Problems = dict[str, list[str]]


class MalformedCommand(IllegalCommand):
    """A command that is not one of the match's game's shapes: ``fields`` says what is wrong with each
    field, as the API's validation errors do. Its own code, not ``validation_error``: the command
    fits the API's document (some hosted game has that shape), this match's game refuses it."""

    code = "not_this_games_command"

    def __init__(self, message: str, fields: Problems) -> None:
        super().__init__(message)
        self.fields = fields


def problems(shapes: Mapping[str, CommandShape], command: Mapping[str, Any]) -> Problems:
    """What in ``command`` does not fit the shape of its ``type`` among ``shapes`` (empty: fits)."""
    kind = command.get("type")
    shape = shapes.get(kind) if isinstance(kind, str) else None
    if shape is None:
        return {"type": [f"Must be one of: {', '.join(shapes)}."]}
    found: Problems = {}
    for name, value in command.items():
        if name in SERVICE_FIELDS:
            continue
        param = shape.params.get(name)
        wrong = ["Unknown field."] if param is None else _value_problems(param, value)
        if wrong:
            found[name] = wrong
    for name, param in shape.params.items():
        if param.required and name not in command:
            found[name] = ["Missing data for required field."]
    return found


def check(shapes: Mapping[str, CommandShape], command: Mapping[str, Any]) -> None:
    """Raise ``MalformedCommand`` unless ``command`` fits its shape among ``shapes``."""
    found = problems(shapes, command)
    if found:
        raise MalformedCommand(f"not a command of this game: {', '.join(sorted(found))}", found)


def _value_problems(param: Param, value: Any) -> list[str]:
    if param.kind == "id":
        return _id_problems(value, param.high or ID_MAX)
    if param.kind == "ids":
        if not isinstance(value, list):
            return ["Not a valid list."]
        low, high = param.low or 0, param.high if param.high is not None else ID_MAX
        if not low <= len(value) <= high:
            return [f"Length must be between {low} and {high}."]
        return [w for v in value for w in _id_problems(v, ID_MAX)][:1]
    if param.kind == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            return ["Not a valid integer."]
        low = param.low if param.low is not None else -(2**31)
        high = param.high if param.high is not None else 2**31 - 1
        return (
            []
            if low <= value <= high
            else [f"Must be greater than or equal to {low} and less than or equal to {high}."]
        )
    if param.kind == "bool":
        return [] if isinstance(value, bool) else ["Not a valid boolean."]
    return [f"unknown field kind {param.kind!r}"]


def _id_problems(value: Any, high: int) -> list[str]:
    if not isinstance(value, str):
        return ["Not a valid string."]
    return [] if 1 <= len(value) <= high else [f"Length must be between 1 and {high}."]
