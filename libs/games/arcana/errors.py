"""What Arcana's rules raise: one exception type per kind of refusal, each an ``IllegalCommand`` of the
game interface (a set-up's refusals an ``IllegalSetup``, the deck's an ``IllegalDeck``, the end's a
``MatchOver``), all under ``RuleViolation``. Each class carries its ``code`` (what the match service
answers 422 with); the message says why.
"""

from __future__ import annotations

from libs import games


class RuleViolation(games.IllegalCommand):
    """Base of every refusal by Arcana's rules: ``start`` and ``decide`` raise only its subclasses."""

    code = "rule_violation"


class InvalidCommand(RuleViolation):
    """Raised by ``decide`` for a malformed command: not a mapping, an unknown type, a missing or ill-typed
    field, a card named twice in a mulligan, an unknown forfeit reason."""

    code = "invalid_command"


class UnknownPlayer(RuleViolation):
    """Raised by ``decide`` when the command's player is not in the match."""

    code = "unknown_player"


class MatchOver(games.MatchOver, RuleViolation):
    """Raised by ``decide`` for any command once the match has ended."""

    code = "match_over"


class WrongPhase(RuleViolation):
    """Raised for a command of another phase: a turn action during the mulligan, a mulligan after it."""

    code = "wrong_phase"


class AlreadyMulliganed(RuleViolation):
    """Raised for a second mulligan (or mulligan timeout) of one player: one each."""

    code = "already_mulliganed"


class NotYourTurn(RuleViolation):
    """Raised for a turn action, or a turn's timeout, of the player who is not active."""

    code = "not_your_turn"


class CardNotInHand(RuleViolation):
    """Raised when a played or returned card is not in that player's hand."""

    code = "card_not_in_hand"


class NotEnoughMana(RuleViolation):
    """Raised when a card's current cost exceeds the mana left."""

    code = "not_enough_mana"


class BoardFull(RuleViolation):
    """Raised for a unit played onto a full board (6 units)."""

    code = "board_full"


class InvalidPosition(RuleViolation):
    """Raised for a unit's position that is not an int in 0..len(board), or a position given to a spell."""

    code = "invalid_position"


class TargetRequired(RuleViolation):
    """Raised for a targeted spell played without a target."""

    code = "target_required"


class IllegalTarget(RuleViolation):
    """Raised for a target the card or the attack may not take (or a target given to a card that takes
    none, or to a unit)."""

    code = "illegal_target"


class UnknownUnit(RuleViolation):
    """Raised when the attacker is not a unit on the player's own board."""

    code = "unknown_unit"


class UnitCannotAttack(RuleViolation):
    """Raised for an attack by a unit played this turn without Rush, or without attack."""

    code = "unit_cannot_attack"


class AlreadyAttacked(RuleViolation):
    """Raised for a unit's second attack in one turn."""

    code = "already_attacked"


class MustAttackTaunt(RuleViolation):
    """Raised for an attack on anything but a Taunt unit while the defender has one."""

    code = "must_attack_taunt"


class InvalidDeck(games.IllegalDeck, RuleViolation):
    """Raised by ``start`` (and ``validate_deck``) for a deck that is not 20 catalog cards within the
    copy limits."""

    code = "invalid_deck"


class InvalidArcana(games.IllegalSetup, RuleViolation):
    """Raised by ``start`` for a set-up's spread that is not 2 early + 2 mid + 2 ending distinct dealt
    arcana."""

    code = "invalid_arcana"


class InvalidSetup(games.IllegalSetup, RuleViolation):
    """Raised by ``start`` for anything else wrong with a set-up (its mapping, match id, seed, players,
    first player, shuffle or date)."""

    code = "invalid_setup"


ERRORS: tuple[type[RuleViolation], ...] = (
    InvalidCommand,
    UnknownPlayer,
    MatchOver,
    WrongPhase,
    AlreadyMulliganed,
    NotYourTurn,
    CardNotInHand,
    NotEnoughMana,
    BoardFull,
    InvalidPosition,
    TargetRequired,
    IllegalTarget,
    UnknownUnit,
    UnitCannotAttack,
    AlreadyAttacked,
    MustAttackTaunt,
    InvalidDeck,
    InvalidArcana,
    InvalidSetup,
)
"""Every refusal ``start`` and ``decide`` raise (the game's ``errors``)."""
