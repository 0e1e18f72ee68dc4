"""Arcane Arena: a 2-4 player wizards' duel, as a pure, deterministic rules package (standard library only).

`start(setup)` gives the opening events, `decide(state, command)` the events of a command (or a precise
`ArenaRuleViolation`), `evolve`/`fold` rebuild the state; `view`, `visible_event`, `waits`,
`legal_commands` and `result` are what the match service asks (docs/arena.md).
"""

from .bots import greedy_bot, random_bot
from .cards import COMBOS, DECK, KINDS, kind_of
from .constants import (
    GAME,
    MAX_LIFE,
    REACTION_SECONDS,
    SEATS,
    TURN_SECONDS,
    Bonus,
    Cmd,
    Combo,
    Ev,
    Kind,
    Phase,
    Ward,
)
from .engine import decide, evolve, fold, legal_commands, start
from .errors import (
    AlreadySwapped,
    ArenaRuleViolation,
    CannotDraw,
    CardNotInHand,
    IllegalTarget,
    InvalidBonus,
    InvalidCommand,
    InvalidSetup,
    MatchOver,
    NotPlayable,
    NotYourTurn,
    UnknownPlayer,
    WrongDiscard,
    WrongPhase,
)
from .selfplay import Played, RoundEnd, Summary, measure, play_match, wins_of_first
from .state import State, state_hash
from .tactics import tactical_bot
from .views import Waiting, result, view, visible_event, waits

__all__ = [
    "COMBOS",
    "DECK",
    "GAME",
    "KINDS",
    "MAX_LIFE",
    "REACTION_SECONDS",
    "SEATS",
    "TURN_SECONDS",
    "AlreadySwapped",
    "ArenaRuleViolation",
    "Bonus",
    "CannotDraw",
    "CardNotInHand",
    "Cmd",
    "Combo",
    "Ev",
    "IllegalTarget",
    "InvalidBonus",
    "InvalidCommand",
    "InvalidSetup",
    "Kind",
    "MatchOver",
    "NotPlayable",
    "NotYourTurn",
    "Phase",
    "Played",
    "RoundEnd",
    "State",
    "Summary",
    "UnknownPlayer",
    "Waiting",
    "Ward",
    "WrongDiscard",
    "WrongPhase",
    "decide",
    "evolve",
    "fold",
    "greedy_bot",
    "kind_of",
    "legal_commands",
    "measure",
    "play_match",
    "random_bot",
    "result",
    "start",
    "state_hash",
    "tactical_bot",
    "view",
    "visible_event",
    "waits",
    "wins_of_first",
]
