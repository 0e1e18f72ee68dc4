"""The accounts domain, pure: commands, errors, the username and password rules, the growing delay
after failed log-ins. Its events are declared in ``events.py``.

Usernames are 3-24 characters of ``[a-z0-9_]``, compared case-insensitively: they are stored in
lower case. Passwords are 8-128 characters (after Unicode NFKC normalisation).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
import uuid
from dataclasses import dataclass

from services.accounts.events import PlayerRegistered

USERNAME_MIN, USERNAME_MAX = 3, 24
DISPLAY_NAME_MIN, DISPLAY_NAME_MAX = 3, 24
DISPLAY_NAME_PATTERN = r"[A-Za-z0-9_.-]+(?: [A-Za-z0-9_.-]+)*"  # words joined by single spaces
PASSWORD_MIN, PASSWORD_MAX = 8, 128
_USERNAME_RE = re.compile(r"[a-z0-9_]+")  # fullmatch: "$" would accept a trailing newline
_DEFAULT_NAME_RE = re.compile(r"player-[0-9a-f]{12}", re.IGNORECASE)  # libs.contracts.default_display_name


class AccountsError(Exception):
    """Base of the domain's errors."""


class InvalidInput(AccountsError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class UsernameTaken(AccountsError):
    """Another player already has this username (case-insensitively)."""


class DisplayNameTaken(AccountsError):
    """Another player already shows this name (case-insensitively), or it is reserved: the
    player's own log-in name (showing it would give it away) or of the default names' form."""


class InvalidCredentials(AccountsError):
    """Unknown username or wrong password: deliberately not saying which."""


class UnknownPlayer(AccountsError):
    """A valid token names a player that does not exist (any more)."""


class TooManyAttempts(AccountsError):
    """Too many log-in attempts for this username or client address; retry after ``retry_after`` s."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"retry after {retry_after} s")
        self.retry_after = retry_after


class TooManyRegistrations(TooManyAttempts):
    """Too many registrations from this client address; retry after ``retry_after`` s."""


def normalize_username(username: str) -> str:
    return username.lower()


def normalize_password(password: str) -> str:
    return unicodedata.normalize("NFKC", password)


def username_problem(username: str) -> str | None:
    """Why ``username`` is not acceptable, or None."""
    if not USERNAME_MIN <= len(username) <= USERNAME_MAX:
        return f"Must be {USERNAME_MIN} to {USERNAME_MAX} characters."
    if not _USERNAME_RE.fullmatch(normalize_username(username)):
        return "Only letters a-z, digits and underscores are allowed."
    return None


def display_name_problem(name: str) -> str | None:
    """Why ``name`` is not acceptable as a public display name, or None."""
    if not DISPLAY_NAME_MIN <= len(name) <= DISPLAY_NAME_MAX:
        return f"Must be {DISPLAY_NAME_MIN} to {DISPLAY_NAME_MAX} characters."
    if not re.fullmatch(DISPLAY_NAME_PATTERN, name):
        return "Letters, digits and _ . - only, words joined by single spaces."
    return None


def password_problem(password: str) -> str | None:
    """Why ``password`` is not acceptable, or None."""
    if not PASSWORD_MIN <= len(normalize_password(password)) <= PASSWORD_MAX:
        return f"Must be {PASSWORD_MIN} to {PASSWORD_MAX} characters."
    return None


@dataclass(frozen=True)
class RegisterPlayer:
    """Create an account. Raises ``InvalidInput`` when a rule is broken."""

    username: str
    password: str
    client_address: str = "unknown"

    def __post_init__(self) -> None:
        for field, problem in (
            ("username", username_problem(self.username)),
            ("password", password_problem(self.password)),
        ):
            if problem:
                raise InvalidInput(field, problem)
        object.__setattr__(self, "username", normalize_username(self.username))
        object.__setattr__(self, "password", normalize_password(self.password))


@dataclass(frozen=True)
class ChangeDisplayName:
    """Choose the public name others see. Raises ``InvalidInput`` when a rule is broken; the store
    refuses a name taken (``DisplayNameTaken``)."""

    player_id: uuid.UUID
    display_name: str

    def __post_init__(self) -> None:
        problem = display_name_problem(self.display_name)
        if problem:
            raise InvalidInput("display_name", problem)

    def reserved(self, username: str) -> bool:
        """Whether the name is not the player's to take: their log-in name (showing it would give
        it away) or of the form of default names (``Player-`` and 12 hex digits)."""
        own = self.display_name.lower() == normalize_username(username)
        return own or _DEFAULT_NAME_RE.fullmatch(self.display_name) is not None


@dataclass(frozen=True)
class LogIn:
    """Exchange a username and password for a token (no rules checked: a bad one just fails)."""

    username: str
    password: str
    client_address: str

    @property
    def username_key(self) -> str:
        return normalize_username(self.username)


@dataclass(frozen=True)
class DeleteAccount:
    """Erase the player's account; ``password`` re-authenticates them (a stolen token alone must
    not be enough). No rules checked: a wrong password just fails (``WrongPassword``)."""

    player_id: uuid.UUID
    password: str


class NoSuchAccount(AccountsError):
    """An operator named a player who has no account (never had, or it was deleted)."""


class WrongPassword(AccountsError):
    """The password given to confirm an account's deletion is not the account's."""


def pseudonym(player_id: uuid.UUID) -> str:
    """What is shown of an erased player instead of any name: ``deleted-`` and 12 hex digits of a
    hash of the id (stable, so the same player reads the same everywhere; of the id only, so it
    tells nothing of the person)."""
    return "deleted-" + hashlib.sha256(str(player_id).encode()).hexdigest()[:12]


def player_stream(player_id: uuid.UUID) -> str:
    return f"player-{player_id}"


def register(command: RegisterPlayer, player_id: uuid.UUID) -> PlayerRegistered:
    """Decide the outcome of ``RegisterPlayer`` (uniqueness is enforced by the store)."""
    return PlayerRegistered(str(player_id))


def failures_over_limit(own: int, total: int, free: int, known_address: bool) -> int:
    """How many of an address's failures at a username count towards its delay: only its own.

    ``own``: this address's failures at the username in the window; ``total``: everyone's;
    ``free``: failures a username allows before delays. A stranger's guesses never lengthen the
    owner's wait: an address waits by its own failures once the username is over its limit (its
    first failure then: the shortest delay). An address that has logged in successfully as the
    username keeps a normal pace: only its own failures over ``free`` count."""
    if known_address:
        return max(0, own - free)
    return min(own, total - free) if total > free else 0


def delay_after_failure(excess: int, base_seconds: int, max_seconds: int) -> int:
    """Seconds an address waits before its next try at a username after ``excess`` failures that
    count (``failures_over_limit``): ``base``, then twice as long with each further failure, at
    most ``max``."""
    if excess <= 0:
        return 0
    return min(max_seconds, base_seconds * 2 ** min(excess - 1, 30))
