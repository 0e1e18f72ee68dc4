"""start / decide / evolve / fold of the line, and where each part lives.

| module | what |
|---|---|
| `catalog` | the cards (data/cards.json, validated on load), stat budget, line legality, welcome set |
| `links` | the links a five lights and the stats they bake |
| `setup` | `start`: the setup checked, FightStarted, the whole fight |
| `resolution` | the resolution: every hit, death and heal as an event |
| `appliers` | `evolve`, `fold` |
| `deciders` | `decide` (always refuses: no turns), `legal_commands` (none) |
| `views` | `view`, `visible_event`, `combat_log`, `result` |
| `bots` | `pick_line` |
"""

from __future__ import annotations

from .appliers import evolve, fold
from .deciders import decide, legal_commands
from .setup import fight, start

__all__ = ["decide", "evolve", "fight", "fold", "legal_commands", "start"]
