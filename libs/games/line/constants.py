"""Numbers and code words of the line (docs/line.md), as typed constants."""

from __future__ import annotations

from enum import StrEnum
from typing import Final

GAME: Final = "line"
LINE_SIZE: Final = 5  # five different cards in a row, slot 0 is the front (left)
SEATS: Final = frozenset({2})  # a fight is always two sides
MAX_ROUNDS: Final = 40
MAX_SAVED_LINES: Final = 5  # per player, one active (kept by the economy service)
TRAINING_TO_UNLOCK_RANKED: Final = 3
# The version of the line's rules a fight is played under (written in its FightStarted as `rules`; absent:
# 1). 1: the classic link needed three different cards; 2: one card may meet several of its requirements.
RULES_VERSION: Final = 2
RULES_VERSIONS: Final = (1, 2)


def heal_amount(round_: int) -> int:
    """What a support heals after the hits of `round_`: 2 in rounds 1-5, 1 in 6-10, 0 after."""
    return 2 if round_ <= 5 else 1 if round_ <= 10 else 0


def ramp(round_: int) -> int:
    """ATK every hit gains in `round_`: 0 in 1-10, +1 in 11-20, +2 in 21-30, +3 in 31-40."""
    return (round_ - 1) // 10


class Kind(StrEnum):
    HERO = "hero"
    CREEP = "creep"


class Role(StrEnum):
    """The only card words combat reads."""

    TANK = "tank"
    CARRY = "carry"
    NUKER = "nuker"
    SUPPORT = "support"


class Tag(StrEnum):
    """Words only links read."""

    INITIATOR = "initiator"
    DISABLER = "disabler"
    ESCAPE = "escape"
    HEALER = "healer"
    BABYSITTER = "babysitter"
    PUSHER = "pusher"


CREEP_ROLES: Final = frozenset({Role.TANK.value, Role.CARRY.value})


class Link(StrEnum):
    ANCHOR = "anchor"
    CLASSIC = "classic"
    CONTROL_NET = "control_net"
    NUKER_CHOIR = "nuker_choir"
    SLIPPERY = "slippery"
    PUSH = "push"


class Hit(StrEnum):
    """How a CardHit was dealt."""

    FRONT = "front"  # into the enemy's leftmost living card
    CARRY_FRONT = "carry_front"  # a carry standing on its own front: half
    BACK = "back"  # a nuker's second hit into the rightmost living enemy: half


class Ev(StrEnum):
    FIGHT_STARTED = "FightStarted"
    ROUND_STARTED = "RoundStarted"
    CARD_HIT = "CardHit"
    CARD_DIED = "CardDied"
    CARD_HEALED = "CardHealed"
    ROUND_ENDED = "RoundEnded"
    MATCH_ENDED = "MatchEnded"


class EndReason(StrEnum):
    LINE_FELL = "line_fell"  # one side has no living card
    FROZEN = "frozen"  # a round ended with no card below its HP at the round's start
    ROUND_LIMIT = "round_limit"  # round 40 ended


class TieBreak(StrEnum):
    """The first tie-break criterion that separated the sides, in the order they are checked."""

    LIVING_CARDS = "living_cards"
    LIVING_ATK = "living_atk"
    CURRENT_HP = "current_hp"
    ARMOUR = "armour"
    TECHNICAL = "technical"  # all equal: the side that acted first in round 1 loses


class Mode(StrEnum):
    TRAINING = "training"
    CASUAL = "casual"
    RANKED = "ranked"
