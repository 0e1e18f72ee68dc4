"""The line: a five-card auto-battler, as a pure, deterministic rules package (standard library only).

`start(setup)` resolves the whole fight into events; `fold(events)` rebuilds its state; `view`,
`visible_event`, `combat_log` and `result` are what a viewer and the services see (docs/line.md).
"""

from .autofill import autofill
from .bots import pick_line
from .catalog import (
    CATALOG,
    WELCOME_LINE,
    WELCOME_SET,
    Card,
    line_problems,
    stat_value,
    validate_catalog,
    validate_line,
)
from .constants import GAME, LINE_SIZE, MAX_ROUNDS, SEATS, EndReason, Ev, Hit, Link, Mode, Role, Tag, TieBreak
from .engine import decide, evolve, fight, fold, legal_commands, start
from .errors import FightOver, InvalidCommand, InvalidLine, InvalidSetup, LineRuleViolation, UnknownPlayer
from .links import ActiveLink, Fighter, active_links, bake
from .state import State, state_hash
from .views import combat_log, result, view, visible_event

__all__ = [
    "CATALOG",
    "GAME",
    "LINE_SIZE",
    "MAX_ROUNDS",
    "SEATS",
    "WELCOME_LINE",
    "WELCOME_SET",
    "ActiveLink",
    "Card",
    "EndReason",
    "Ev",
    "FightOver",
    "Fighter",
    "Hit",
    "InvalidCommand",
    "InvalidLine",
    "InvalidSetup",
    "LineRuleViolation",
    "Link",
    "Mode",
    "Role",
    "State",
    "Tag",
    "TieBreak",
    "UnknownPlayer",
    "active_links",
    "autofill",
    "bake",
    "combat_log",
    "decide",
    "evolve",
    "fight",
    "fold",
    "legal_commands",
    "line_problems",
    "pick_line",
    "result",
    "start",
    "stat_value",
    "state_hash",
    "validate_catalog",
    "validate_line",
    "view",
    "visible_event",
]
