"""What services exchange, shared by producers and consumers without importing one another.

Standard library only (domain code may import it): the integration events that cross a topic, one
frozen dataclass per type in the module of the service that publishes it (``decode`` at the
consumer's boundary, ``MalformedEvent`` for bad data: a dead letter), and values several services
must compute alike (``match_id_for``).
"""

from libs.contracts.accounts import (
    AccountDeleted,
    AllSessionsRevoked,
    DisplayNameChanged,
    PlayerLoggedIn,
    PlayerRegistered,
    SessionRevoked,
)
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
from libs.contracts.ratings import RatingChanged

__all__ = [
    "DECKS_TOPIC",
    "FIRST_GAME",
    "AccountDeleted",
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
    "PlayerDisconnected",
    "PlayerLoggedIn",
    "PlayerReconnected",
    "PlayerRegistered",
    "QuestCompleted",
    "RatingChanged",
    "RewardGranted",
    "SessionRevoked",
    "StreakDayKept",
    "Unacceptable",
    "default_display_name",
    "integration_event",
    "match_id_for",
]
