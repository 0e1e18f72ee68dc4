"""Numbers and code words of Arcane Arena (docs/arena.md), as typed constants."""

from __future__ import annotations

from enum import StrEnum
from typing import Final

GAME: Final = "arena"
SEATS: Final = frozenset({2, 3, 4})
MAX_LIFE: Final = 9
DEAL: Final = 2  # cards dealt to each player at a round's start
HAND_LIMIT: Final = 3  # at most this many cards at the end of a turn; starting a turn with it forbids "draw"
ROUNDS_TO_WIN: Final = 3
EXHAUSTION_REMOVES: Final = 2  # discard cards removed from the round when the pile is rebuilt
TURN_SECONDS: Final = 60  # for the action, and again for the discard phase
REACTION_SECONDS: Final = 10


class Kind(StrEnum):
    FIREBALL = "fireball"
    SHIELD = "shield"
    HEALING_LIGHT = "healing_light"
    EXPLOSION = "explosion"
    LIGHTNING = "lightning"
    MIRROR = "mirror"
    ARCANE_BARRIER = "arcane_barrier"
    HAND_OF_SHADOWS = "hand_of_shadows"
    SHADOW_VEIL = "shadow_veil"
    MANA_FOCUS = "mana_focus"


class Family(StrEnum):
    ATTACK = "attack"
    DEFENCE = "defence"  # played only in answer to an attack (or in a combo)
    SUPPORT = "support"


class Combo(StrEnum):
    FLAME_BURST = "flame_burst"  # fireball + explosion: 3 damage to one opponent, no recoil
    MAGIC_FORTRESS = "magic_fortress"  # shield + arcane barrier: no damage until your next turn, +1 life
    SUPREME_COUNTER = "supreme_counter"  # mirror + shadow veil: attacks go back +1, you take 1 less
    DESECRATION = "desecration"  # hand of shadows + mana focus: take any card of the discard pile
    MYSTIC_REGENERATION = "mystic_regeneration"  # healing light x 2: +3 life


class Bonus(StrEnum):
    """What a player picks after a combo."""

    DRAW = "draw"
    LIFE = "life"


class Phase(StrEnum):
    ACTION = "action"  # the active player's one action
    REACTION = "reaction"  # an attacked player's window
    DISCARD = "discard"  # the active player's discard phase
    ENDED = "ended"


class Cmd(StrEnum):
    DRAW = "draw"
    PLAY = "play"
    COMBO = "combo"
    REACT = "react"
    PASS = "pass"
    SWAP = "swap"  # the discard phase: discard one card to draw one
    END_TURN = "end_turn"
    CONCEDE = "concede"
    TIMEOUT = "timeout"  # system: the awaited player's time ran out
    FORFEIT = "forfeit"  # system: a player left the match


class Ev(StrEnum):
    MATCH_STARTED = "MatchStarted"
    ROUND_STARTED = "RoundStarted"
    CARD_DRAWN = "CardDrawn"
    NOTHING_DRAWN = "NothingDrawn"
    PILE_REBUILT = "PileRebuilt"
    TURN_STARTED = "TurnStarted"
    CARD_PLAYED = "CardPlayed"
    COMBO_PLAYED = "ComboPlayed"
    CARD_STOLEN = "CardStolen"
    CARD_TAKEN = "CardTaken"
    ATTACK_DECLARED = "AttackDeclared"
    REACTION_WINDOW_OPENED = "ReactionWindowOpened"
    REACTION_PLAYED = "ReactionPlayed"
    REACTION_PASSED = "ReactionPassed"
    ATTACK_RESOLVED = "AttackResolved"
    ATTACK_CANCELLED = "AttackCancelled"
    LIFE_LOST = "LifeLost"
    LIFE_GAINED = "LifeGained"
    WARD_RAISED = "WardRaised"
    BONUS_TAKEN = "BonusTaken"
    ACTION_ENDED = "ActionEnded"
    CARD_DISCARDED = "CardDiscarded"
    TURN_TIMED_OUT = "TurnTimedOut"
    TURN_ENDED = "TurnEnded"
    PLAYER_OUT = "PlayerOut"
    PLAYER_LEFT = "PlayerLeft"
    ROUND_WON = "RoundWon"
    ROUND_REPLAYED = "RoundReplayed"
    MATCH_ENDED = "MatchEnded"


class Ward(StrEnum):
    """A standing protection, until the start of its owner's next turn."""

    VEIL = "veil"  # shadow veil: immune to all damage
    FORTRESS = "fortress"  # magic fortress: no damage
    COUNTER = "counter"  # supreme counter: each attack goes back +1, 1 less taken


class EndReason(StrEnum):
    ROUNDS = "rounds"  # a player won its third round
    LAST_IN_MATCH = "last_in_match"  # every other player left (forfeit or concede)


class LeaveReason(StrEnum):
    CONCEDE = "concede"
    DISCONNECT = "disconnect"
