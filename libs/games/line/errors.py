"""What `start` and `decide` raise: one exception type per kind of refusal, all `LineRuleViolation`, an
`IllegalCommand` of the game interface (a set-up's refusals an `IllegalSetup`, a bad line an
`IllegalDeck`, a command after the fight a `MatchOver`).

Each class carries its `code` (the string the match service answers 422 with); the message says why.
"""

from __future__ import annotations

from libs import games


class LineRuleViolation(games.IllegalCommand):
    """Base of every refusal by the line's rules. `.code` names the kind; `.message` says why."""

    code = "rule_violation"


class InvalidSetup(games.IllegalSetup, LineRuleViolation):
    """Raised by `start` for a setup that is not a mapping of match_id, int seed and two distinct players."""

    code = "invalid_setup"


class InvalidLine(games.IllegalDeck, LineRuleViolation):
    """Raised by `start` (and `validate_line`) for a line that is not five different catalog cards; by the
    game's `setup` with `problems`, each seated player's."""

    code = "invalid_line"


class InvalidCommand(LineRuleViolation):
    """Raised by `decide` for a command that is not a mapping with a string `type` and `player`."""

    code = "invalid_command"


class UnknownPlayer(LineRuleViolation):
    """Raised by `decide` when the command's player is not one of the fight's two sides."""

    code = "unknown_player"


class FightOver(games.MatchOver, LineRuleViolation):
    """Raised by `decide` for every well-formed command of a player: the fight is resolved whole by
    `start` (no turns), so nothing is left to decide."""

    code = "match_over"


ERRORS: tuple[type[LineRuleViolation], ...] = (
    InvalidSetup,
    InvalidLine,
    InvalidCommand,
    UnknownPlayer,
    FightOver,
)
"""Every refusal `start` and `decide` raise (the game's `errors`)."""
