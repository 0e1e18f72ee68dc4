"""What services exchange, shared by producers and consumers without importing one another.

Standard library only (domain code may import it): the integration events that cross a topic, one
frozen dataclass per type in the module of the service that publishes it (``decode`` at the
consumer's boundary, ``MalformedEvent`` for bad data: a dead letter), and values several services
must compute alike (``match_id_for``).
"""

from libs.contracts.accounts import (
    AccountDeleted,
    AccountRestored,
    AccountSuspended,
    AllSessionsRevoked,
    DisplayNameChanged,
    PlayerLoggedIn,
    PlayerRegistered,
    SessionRevoked,
)
from libs.contracts.audit import AUDIT_STREAM, OperatorActed
from libs.contracts.base import FIRST_GAME, IntegrationEvent, MalformedEvent, Unacceptable, integration_event
from libs.contracts.economy import DECKS_TOPIC, ActiveDeckChanged, ActiveDeckChangedInFull
from libs.contracts.ids import default_display_name, match_id_for
from libs.contracts.match import (
    MatchCreated,
    MatchEnded,
    MatchRequestRejected,
    PlayerDisconnected,
    PlayerReconnected,
)
from libs.contracts.matchmaking import MatchRequested
from libs.contracts.progression import QuestCompleted, RewardGranted, StreakDayKept
from libs.contracts.ratings import RatingChanged, RatingChangeVoided

__all__ = [
    "AUDIT_STREAM",
    "DECKS_TOPIC",
    "FIRST_GAME",
    "AccountDeleted",
    "AccountRestored",
    "AccountSuspended",
    "ActiveDeckChanged",
    "ActiveDeckChangedInFull",
    "AllSessionsRevoked",
    "DisplayNameChanged",
    "IntegrationEvent",
    "MalformedEvent",
    "MatchCreated",
    "MatchEnded",
    "MatchRequestRejected",
    "MatchRequested",
    "OperatorActed",
    "PlayerDisconnected",
    "PlayerLoggedIn",
    "PlayerReconnected",
    "PlayerRegistered",
    "QuestCompleted",
    "RatingChangeVoided",
    "RatingChanged",
    "RewardGranted",
    "SessionRevoked",
    "StreakDayKept",
    "Unacceptable",
    "default_display_name",
    "integration_event",
    "match_id_for",
]
