"""The practice bot: it plays its moves (the greedy bot of the rules) as system commands while the
match waits for it. Its choices are seeded by the match and version, so a replayed task picks the same."""

from __future__ import annotations

import random

from services.match import domain
from services.match.system import SystemCommands

MAX_BOT_MOVES = 100


class BotPlayer:
    def __init__(self, system: SystemCommands) -> None:
        self.system = system

    def bot_turn(self, match_id: str) -> int:
        """Play the bot's moves while the match waits for it; returns how many."""
        moves = 0
        for _ in range(MAX_BOT_MOVES):
            outcome = self.system.run(
                match_id,
                lambda m: domain.bot_command(m, random.Random(f"{m.match_id}:{m.version}")),
                bot=False,
            )
            if outcome is None:
                break
            moves += 1
        return moves
