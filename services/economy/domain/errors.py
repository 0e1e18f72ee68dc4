"""The economy domain's errors: each names what was refused (``code``) and why (``message``).

``api.py`` maps them to HTTP statuses; nothing is written when one is raised.
"""

from __future__ import annotations

from typing import Any


class EconomyError(Exception):
    """Base of the domain's refusals."""

    code = "economy_error"

    def __init__(self, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class DailyLimitReached(EconomyError):
    """A match credit beyond the player's paying matches of the UTC day (``libs.fairplay``): economy
    enforces the limit on what it pays, whatever a ``MatchEnded``'s verdict claims."""

    code = "daily_limit_reached"


class WalletNotFound(EconomyError):
    code = "wallet_not_found"


class UnknownCard(EconomyError):
    code = "unknown_card"


class InsufficientCoins(EconomyError):
    code = "insufficient_coins"


class InsufficientDust(EconomyError):
    code = "insufficient_dust"


class CraftBeyondLimit(EconomyError):
    code = "craft_beyond_limit"


class CardNotOwned(EconomyError):
    code = "card_not_owned"


class DeckNotFound(EconomyError):
    code = "deck_not_found"


class DeckLimitReached(EconomyError):
    code = "deck_limit_reached"


class InvalidDeck(EconomyError):
    """A deck refused at saving: too many cards or copies, unknown ids, copies the player does not
    own (``details["problems"]`` names every problem)."""

    code = "invalid_deck"


class IllegalDeck(EconomyError):
    """Activation refused: ``details["problems"]`` names every problem."""

    code = "illegal_deck"


class ActiveDeckUndeletable(EconomyError):
    code = "active_deck"


class InvalidAmount(EconomyError):
    code = "invalid_amount"


class AlreadyCredited(EconomyError):
    """A credit whose source was already paid (a redelivered event, a replayed reward)."""

    code = "already_credited"


class AlreadyOpened(EconomyError):
    """The player's wallet exists already (a redelivered PlayerRegistered)."""

    code = "wallet_exists"


class AboveCeiling(EconomyError):
    """An operator grant above the configured ceiling (``details["problems"]``)."""

    code = "grant_above_ceiling"


class WelcomeAlreadyClaimed(EconomyError):
    """The line's welcome set was claimed already (it is given once)."""

    code = "welcome_already_claimed"


class InvalidLine(EconomyError):
    """A line refused: not five different line cards the player owns (``details["problems"]`` names
    every problem)."""

    code = "invalid_line"


class BeyondBalance(EconomyError):
    """A claw-back would take more than the wallet holds (``details.balance`` says what)."""

    code = "beyond_balance"


class InvalidEntry(EconomyError):
    """A tournament entry refused: not the game's number of different cards the player owns
    (``details["problems"]`` names every problem)."""

    code = "invalid_entry"


class AlreadyEntered(EconomyError):
    """The player's tournament entry is still open (``details["entry_id"]``): one at a time."""

    code = "already_entered"


class DailyEntriesReached(EconomyError):
    """The tournament's entries of the UTC day are used up (``details["limit"]``)."""

    code = "daily_entries_reached"
