"""The beat's sweep: whatever is due in every running match (deadlines passed while workers were down,
lost tasks, a bot to move, presence changes); overlapping sweeps share the due matches."""

from __future__ import annotations

import logging

from libs import clock
from services.match import store
from services.match.repository import MatchRepository
from services.match.usecases.bot import BotPlayer
from services.match.usecases.system import SystemCommands

log = logging.getLogger(__name__)


class Sweeper:
    def __init__(self, matches: MatchRepository, system: SystemCommands, bot: BotPlayer) -> None:
        self.matches = matches
        self.system = system
        self.bot = bot

    def sweep(self, limit: int = 500) -> int:
        """``tick`` and ``bot_turn`` every match where something may be due (at most ``limit``) that no other
        sweep is working on; a match that fails is logged and skipped. Returns the matches visited.

        Sweeps overlap: the beat sends one every 2 s and each Celery process may run one, while one sweep
        over many due matches (after an outage, every running match) takes longer. Each claims a match
        before ticking it (``store.claim_for_sweep``) and passes over those another sweep holds, so
        overlapping sweeps share the due matches instead of racing through the same ones in step."""
        with self.matches.reading() as conn:
            ids = store.due_matches(conn, self.matches.schema, clock.now(), limit)
        visited = 0
        with self.matches.reading() as claims:
            for match_id in ids:
                if not store.claim_for_sweep(claims, self.matches.schema, match_id):
                    continue
                try:
                    self.system.tick(match_id)
                    self.bot.bot_turn(match_id)
                except Exception:
                    log.exception("sweep: match %s failed", match_id)
                finally:
                    store.release_sweep_claim(claims, self.matches.schema, match_id)
                visited += 1
        return visited
