"""start / decide / evolve / fold of Arcane Arena, and where each part lives.

| module | what |
|---|---|
| `cards` | the 16 cards (instance ids name their kind) and the five combos |
| `setup` | `start`: MatchStarted and round 1 |
| `deciders` | `decide`: one decider per command |
| `flow` | what deciders share: draws and exhaustion, damage, attacks and windows, turns, rounds, the end |
| `appliers` | `evolve`, `fold` |
| `legal` | `legal_commands` |
| `views` | `view`, `visible_event`, `waits`, `result` |
| `bots` | `random_bot`, `greedy_bot` |
"""

from __future__ import annotations

from .appliers import evolve, fold
from .deciders import decide
from .legal import legal_commands
from .setup import start

__all__ = ["decide", "evolve", "fold", "legal_commands", "start"]
