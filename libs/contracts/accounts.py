"""What accounts publishes on ``arcana.accounts.events`` (stream ``player-<id>``): economy,
progression, ratings, match and every service's session check consume it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from libs.contracts.base import IntegrationEvent, integration_event

_PLAYER = "the player's id (UUID); their stream is `player-<id>`"


def without_username(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 carried the log-in name, which no consumer needs and a topic can never erase:
    version 2 leaves it out (docs/security.md, account deletion)."""
    return {key: value for key, value in data.items() if key != "username"}


@integration_event("PlayerRegistered", version=2)
@dataclass(frozen=True)
class PlayerRegistered(IntegrationEvent):
    """A player account exists. Carries nothing of the person: neither the log-in name (version 1
    did; read without it) nor the password or its hash."""

    UPCASTERS = {1: without_username}

    player_id: str = field(metadata={"doc": _PLAYER})


@integration_event("DisplayNameChanged", version=1)
@dataclass(frozen=True)
class DisplayNameChanged(IntegrationEvent):
    """A player chose the public name others see (leaderboards). Until the first one, a player's
    name is `libs.contracts.default_display_name(player_id)`."""

    player_id: str = field(metadata={"doc": _PLAYER})
    display_name: str = field(
        metadata={
            "doc": "3-24 characters: letters, digits, `_ . -`, single spaces; unique case-insensitively"
        }
    )


@integration_event("PlayerLoggedIn", version=2)
@dataclass(frozen=True)
class PlayerLoggedIn(IntegrationEvent):
    """A player logged in with their password (one per token issued). The log-in's UTC day is the
    date of the envelope's `occurred_at`. Version 1 carried the username: read without it."""

    UPCASTERS = {1: without_username}

    player_id: str = field(metadata={"doc": _PLAYER})


@integration_event("SessionRevoked", version=1)
@dataclass(frozen=True)
class SessionRevoked(IntegrationEvent):
    """One token was logged out: it is refused from now on, though it has not expired."""

    player_id: str = field(metadata={"doc": _PLAYER})
    token_id: str = field(metadata={"doc": "the token's id (its `jti` claim)"})
    expires_at: str = field(metadata={"doc": "when the token would have expired (ISO 8601, UTC)"})


@integration_event("AllSessionsRevoked", version=1)
@dataclass(frozen=True)
class AllSessionsRevoked(IntegrationEvent):
    """The player logged out everywhere: every token with a lower `token_version` is refused."""

    player_id: str = field(metadata={"doc": _PLAYER})
    token_version: int = field(metadata={"doc": "the player's token version from now on"})


@integration_event("AccountDeleted", version=1)
@dataclass(frozen=True)
class AccountDeleted(IntegrationEvent):
    """The player deleted their account (or an operator did, on their request): the person is
    erased. Every read model that shows the player's name shows `pseudonym` from now on; the
    player's tokens were revoked just before (`AllSessionsRevoked`). Their game history stays."""

    player_id: str = field(metadata={"doc": _PLAYER})
    by: str = field(metadata={"doc": "who deleted it: `player` (confirmed by password) or `operator`"})
    pseudonym: str = field(
        metadata={"doc": "what is shown instead of any name: `deleted-` and 12 hex digits"}
    )


@integration_event("AccountSuspended", version=1)
@dataclass(frozen=True)
class AccountSuspended(IntegrationEvent):
    """An operator suspended the account: its tokens were revoked just before
    (`AllSessionsRevoked`) and it cannot log in until restored. Matchmaking cancels the player's
    waiting tickets, match forfeits the player's running matches and refuses new ones. Why and by
    whom is in accounts' `audit` stream (`OperatorActed`)."""

    player_id: str = field(metadata={"doc": _PLAYER})


@integration_event("AccountRestored", version=1)
@dataclass(frozen=True)
class AccountRestored(IntegrationEvent):
    """An operator lifted the account's suspension: the player may log in and play again."""

    player_id: str = field(metadata={"doc": _PLAYER})
