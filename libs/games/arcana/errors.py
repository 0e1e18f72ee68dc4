"""The one exception of the rules engine: a command or setup that the rules refuse."""

from __future__ import annotations

from enum import StrEnum


class Code(StrEnum):
    """Why a command (or a match setup) was refused. A `StrEnum`: each code compares equal to its string."""

    INVALID_COMMAND = "invalid_command"  # malformed: unknown type, missing or ill-typed field
    UNKNOWN_PLAYER = "unknown_player"  # the command names a player who is not in the match
    MATCH_OVER = "match_over"  # the match has ended; nothing more is accepted
    WRONG_PHASE = "wrong_phase"  # e.g. a play during the mulligan, a mulligan during play
    ALREADY_MULLIGANED = "already_mulliganed"  # one mulligan per player (a mulligan timeout too)
    NOT_YOUR_TURN = "not_your_turn"  # a turn action (or turn timeout) for the player who is not active
    CARD_NOT_IN_HAND = "card_not_in_hand"  # played or returned card is not in that player's hand
    NOT_ENOUGH_MANA = "not_enough_mana"  # the card's current cost exceeds the mana left
    BOARD_FULL = "board_full"  # a unit played onto a board of 6
    INVALID_POSITION = "invalid_position"  # unit position not an int in 0..len(board), or given to a spell
    TARGET_REQUIRED = "target_required"  # a targeted spell played without a target
    ILLEGAL_TARGET = "illegal_target"  # the target is not one the card or attack may take
    UNKNOWN_UNIT = "unknown_unit"  # the attacker is not a unit on the player's own board
    UNIT_CANNOT_ATTACK = "unit_cannot_attack"  # played this turn without Rush, or has no attack
    ALREADY_ATTACKED = "already_attacked"  # each unit attacks once per turn
    MUST_ATTACK_TAUNT = "must_attack_taunt"  # the defender has a Taunt unit and the target is not one
    INVALID_DECK = "invalid_deck"  # not 20 cards, unknown card, too many copies
    INVALID_ARCANA = (
        "invalid_arcana"  # a setup arcana spread that is not 2 early + 2 mid + 2 ending, distinct
    )
    INVALID_SETUP = "invalid_setup"  # anything else wrong with a match setup


class RuleViolation(Exception):
    """Raised by `start` and `decide` when the rules refuse. `.code` is a `Code`; the message says why."""

    def __init__(self, code: Code, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"RuleViolation({self.code.value!r}, {self.message!r})"
