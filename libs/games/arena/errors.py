"""What `start` and `decide` raise: one exception type per kind of refusal, all `ArenaRuleViolation`, an
`IllegalCommand` of the game interface (a set-up's refusal an `IllegalSetup`, a command after the end a
`MatchOver`).

Each class carries its `code` (the string the match service answers 422 with); the message says why.
"""

from __future__ import annotations

from libs import games


class ArenaRuleViolation(games.IllegalCommand):
    """Base of every refusal by the arena's rules. `.code` names the kind; `.message` says why."""

    code = "rule_violation"


class InvalidSetup(games.IllegalSetup, ArenaRuleViolation):
    """Raised by `start`: not a match_id, an int seed and 2 to 4 distinct player ids, or a bad `first`."""

    code = "invalid_setup"


class InvalidCommand(ArenaRuleViolation):
    """Raised by `decide` for a malformed command: not a mapping, an unknown type, an ill-typed field."""

    code = "invalid_command"


class UnknownPlayer(ArenaRuleViolation):
    """Raised by `decide` when the command's player is not seated, or has left the match."""

    code = "unknown_player"


class MatchOver(games.MatchOver, ArenaRuleViolation):
    """Raised by `decide` for any command once the match has ended."""

    code = "match_over"


class NotYourTurn(ArenaRuleViolation):
    """Raised for a turn command (draw, play, combo, swap, end_turn) from anyone but the active player,
    and for a timeout from a player the match is not waiting for."""

    code = "not_your_turn"


class WrongPhase(ArenaRuleViolation):
    """Raised for a command of another phase: an action in the discard phase or during a reaction window,
    a swap or end_turn before the action, a reaction with no window open for that player."""

    code = "wrong_phase"


class CardNotInHand(ArenaRuleViolation):
    """Raised when the card named (or a combo's two cards) is not in the player's hand."""

    code = "card_not_in_hand"


class NotPlayable(ArenaRuleViolation):
    """Raised for a defence card played as the action, or a non-defence card played as a reaction."""

    code = "not_playable"


class IllegalTarget(ArenaRuleViolation):
    """Raised for a missing or wrong target: not an opponent still in the round, an empty hand to steal
    from, a card not in the discard pile; or a target given to a card that takes none."""

    code = "illegal_target"


class CannotDraw(ArenaRuleViolation):
    """Raised for `draw` by a player who started the turn with 3 cards."""

    code = "cannot_draw"


class AlreadySwapped(ArenaRuleViolation):
    """Raised for a second swap in one discard phase."""

    code = "already_swapped"


class WrongDiscard(ArenaRuleViolation):
    """Raised for an `end_turn` whose `discard` is not exactly the hand's cards over the limit."""

    code = "wrong_discard"


class InvalidBonus(ArenaRuleViolation):
    """Raised for a combo without a bonus of "draw" or "life"."""

    code = "invalid_bonus"


ERRORS: tuple[type[ArenaRuleViolation], ...] = (
    InvalidSetup,
    InvalidCommand,
    UnknownPlayer,
    MatchOver,
    NotYourTurn,
    WrongPhase,
    CardNotInHand,
    NotPlayable,
    IllegalTarget,
    CannotDraw,
    AlreadySwapped,
    WrongDiscard,
    InvalidBonus,
)
"""Every refusal `start` and `decide` raise (the game's `errors`)."""
