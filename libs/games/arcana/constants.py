"""Numbers and code words of Arcana (docs/rules.md), as typed constants."""

from __future__ import annotations

from enum import StrEnum
from typing import Final

MAX_HEALTH: Final = 30
DECK_SIZE: Final = 20
MAX_MANA: Final = 10
BOARD_SIZE: Final = 6
FIRST_HAND: Final = 4
SECOND_HAND: Final = 5
MAX_COPIES: Final = 2
MAX_LEGENDARY_COPIES: Final = 1
MAX_TIMEOUTS: Final = 3  # consecutive timed-out turns that forfeit the match
ROUNDS_PER_ARCANA: Final = 2
SPREAD: Final = ("early", "early", "mid", "mid", "ending", "ending")
ENDING_FIRST_ROUND: Final = 9  # the first round under an ending arcana (5th of the spread)
LAST_ROUND: Final = 16
"""Every match ends in round 16 at the latest: from then on every ending arcana drains >= MAX_HEALTH at the
start of the round, and a hero never has more than MAX_HEALTH (checked by `arcana.validate_arcana`)."""


class Phase(StrEnum):
    MULLIGAN = "mulligan"
    PLAYING = "playing"
    ENDED = "ended"


class ArcanaPhase(StrEnum):
    EARLY = "early"
    MID = "mid"
    ENDING = "ending"


class CardType(StrEnum):
    UNIT = "unit"
    SPELL = "spell"


class Tribe(StrEnum):
    BEAST = "beast"
    WILD = "wild"
    GIANT = "giant"
    ORDER = "order"


class Keyword(StrEnum):
    TAUNT = "taunt"
    RUSH = "rush"
    WARD = "ward"
    LIFESTEAL = "lifesteal"


class Ability(StrEnum):
    BEAST_AURA = "beast_aura"
    ADJACENT_AURA = "adjacent_aura"
    EARLY_ARCANA = "early_arcana"
    PER_BEAST = "per_beast"
    RALLY = "rally"


class Summon(StrEnum):
    PER_WILD = "per_wild"
    GIANT_BUFF = "giant_buff"


class Effect(StrEnum):
    DAMAGE_UNIT_2 = "damage_unit_2"
    HEAL_HERO_4 = "heal_hero_4"
    DRAW_1 = "draw_1"
    BUFF_UNIT_2_1 = "buff_unit_2_1"
    DAMAGE_ENEMY_HERO_3 = "damage_enemy_hero_3"
    DAMAGE_ENEMY_UNITS_2 = "damage_enemy_units_2"
    BUFF_ORDER_1_1 = "buff_order_1_1"
    DAMAGE_ALL_UNITS_1 = "damage_all_units_1"


TARGETED_EFFECTS: Final = frozenset({Effect.DAMAGE_UNIT_2, Effect.BUFF_UNIT_2_1})


class Cmd(StrEnum):
    MULLIGAN = "mulligan"
    PLAY = "play"
    ATTACK = "attack"
    END_TURN = "end_turn"
    CONCEDE = "concede"
    TIMEOUT = "timeout"
    FORFEIT = "forfeit"


class Ev(StrEnum):
    MATCH_STARTED = "MatchStarted"
    DECK_SHUFFLED = "DeckShuffled"
    CARD_DRAWN = "CardDrawn"
    ARCANA_REVEALED = "ArcanaRevealed"
    MULLIGAN_COMPLETED = "MulliganCompleted"
    TURN_STARTED = "TurnStarted"
    HERO_DRAINED = "HeroDrained"
    MANA_REFILLED = "ManaRefilled"
    CARD_PLAYED = "CardPlayed"
    UNIT_SUMMONED = "UnitSummoned"
    UNIT_BUFFED = "UnitBuffed"
    SPELL_CAST = "SpellCast"
    ATTACK_RESOLVED = "AttackResolved"
    DAMAGE_DEALT = "DamageDealt"
    WARD_BROKEN = "WardBroken"
    HERO_HEALED = "HeroHealed"
    UNIT_DIED = "UnitDied"
    TURN_TIMED_OUT = "TurnTimedOut"
    TURN_ENDED = "TurnEnded"
    MATCH_ENDED = "MatchEnded"


class EndReason(StrEnum):
    HERO_KILLED = "hero_killed"
    CONCEDE = "concede"
    TIMEOUTS = "timeouts"
    DISCONNECT = "disconnect"
    SUSPENDED = "suspended"  # an operator suspended the player's account (services/match/suspensions.py)
    DRAW = "draw"


DRAW: Final = "draw"  # MatchEnded.winner when both heroes fall at once
HERO: Final = "hero"  # attack target naming the enemy hero
FORFEIT_REASONS: Final = frozenset({EndReason.TIMEOUTS, EndReason.DISCONNECT, EndReason.SUSPENDED})
