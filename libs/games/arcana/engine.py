"""start / decide / evolve / fold: the rules of Arcana as a pure event-sourced decider.

`decide(state, command)` validates a command against the state and returns the events it causes (raising
`RuleViolation` otherwise); it never changes the state. `evolve(state, event)` applies one event and returns a
new state, leaving its input untouched. Every random outcome (turn order, instance ids, deck orders, the
arcana spread) is written into the events, so `fold(events)` rebuilds the exact state without drawing again.

Where each part lives:

| module | what |
|---|---|
| `setup` | `start`: the opening events from a setup |
| `deciders` | `decide`: a command routed to its decider |
| `mulligan`, `plays`, `spells`, `combat`, `turns`, `endings` | the deciders of each command |
| `effects` | events several deciders emit (draws, heals, Ward-or-damage, deaths, the end) |
| `appliers` | `evolve`, `fold`, `fold_onto`: one applier per event type |
| `names` | the plain-str event, phase and keyword names of the hot path |
"""

from __future__ import annotations

from .appliers import evolve, fold, fold_onto
from .deciders import decide
from .names import Command, Event
from .setup import start

__all__ = ["Command", "Event", "decide", "evolve", "fold", "fold_onto", "start"]
