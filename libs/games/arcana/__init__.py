"""Arcana's rules engine: pure, deterministic, no I/O (standard library only).

The contract other code relies on: `CATALOG`, `ARCANA`, `daily_arcana`, `start`, `decide`, `evolve`, `fold`,
`view`, `legal_commands`, `state_hash`, `RuleViolation` (the base of `ERRORS`, one class per kind of
refusal, in `errors.py`); also `visible_event`, `summary_stats`, `STARTER_DECK`, `STARTER_COLLECTION`,
`LAST_ROUND`.
"""

from .arcana import ARCANA, Arcana, daily_arcana, drain_amount, validate_arcana
from .cards import (
    CATALOG,
    STARTER_COLLECTION,
    STARTER_DECK,
    Card,
    deck_problems,
    validate_catalog,
    validate_deck,
)
from .constants import LAST_ROUND, MAX_HEALTH, Cmd, EndReason, Ev, Phase
from .engine import decide, evolve, fold, start
from .errors import ERRORS, RuleViolation
from .legal import legal_commands
from .state import State, state_hash
from .views import summary_stats, view, visible_event

__all__ = [
    "ARCANA",
    "CATALOG",
    "ERRORS",
    "LAST_ROUND",
    "MAX_HEALTH",
    "STARTER_COLLECTION",
    "STARTER_DECK",
    "Arcana",
    "Card",
    "Cmd",
    "EndReason",
    "Ev",
    "Phase",
    "RuleViolation",
    "State",
    "daily_arcana",
    "decide",
    "deck_problems",
    "drain_amount",
    "evolve",
    "fold",
    "legal_commands",
    "start",
    "state_hash",
    "summary_stats",
    "validate_arcana",
    "validate_catalog",
    "validate_deck",
    "view",
    "visible_event",
]
