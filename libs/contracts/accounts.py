"""What accounts publishes on ``arcana.accounts.events`` (stream ``player-<id>``): economy,
progression, ratings, match and every service's session check consume it."""

from __future__ import annotations

from dataclasses import dataclass, field

from libs.contracts.base import IntegrationEvent, integration_event

_PLAYER = "the player's id (UUID); their stream is `player-<id>`"


@integration_event("PlayerRegistered", version=1)
@dataclass(frozen=True)
class PlayerRegistered(IntegrationEvent):
    """A player account exists. Never carries the password or its hash."""

    player_id: str = field(metadata={"doc": _PLAYER})
    username: str = field(metadata={"doc": "lower case, 3-24 characters of `[a-z0-9_]`, unique"})


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


@integration_event("PlayerLoggedIn", version=1)
@dataclass(frozen=True)
class PlayerLoggedIn(IntegrationEvent):
    """A player logged in with their password (one per token issued). The log-in's UTC day is the
    date of the envelope's `occurred_at`."""

    player_id: str = field(metadata={"doc": _PLAYER})
    username: str = field(metadata={"doc": "the player's username"})


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
