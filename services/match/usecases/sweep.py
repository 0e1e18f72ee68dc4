"""The beat's sweep: whatever is due in every running match (deadlines passed while workers were down,
lost tasks, a bot to move, presence changes); overlapping sweeps share the due matches."""

from __future__ import annotations

import logging

from libs import clock
from services.match import store, sweep_store
from services.match.repository import MatchRepository
from services.match.usecases.batch_tick import BATCH, BatchTicker, Ticked
from services.match.usecases.bot import BotPlayer
from services.match.usecases.system import SystemCommands

log = logging.getLogger(__name__)


class Sweeper:
    def __init__(self, matches: MatchRepository, system: SystemCommands, bot: BotPlayer) -> None:
        self.matches = matches
        self.system = system
        self.bot = bot
        self.ticker = BatchTicker(matches, system.dispatcher)

    def sweep(self, limit: int = 500) -> int:
        """``tick`` and ``bot_turn`` every match where something may be due (at most ``limit``) that no other
        sweep is working on; a match that fails is logged and skipped. Returns the matches visited.

        Sweeps overlap: the beat sends one every 2 s and each Celery process may run one, while one sweep
        over many due matches (after an outage, every running match) takes longer. Each claims its
        matches (``sweep_store.claim_many``) and passes over those another sweep holds, so
        overlapping sweeps share the due matches instead of racing through the same ones in step.
        The matches are ticked in batches (``BatchTicker``: one read, one transaction for many)."""
        with self.matches.reading() as conn:
            ids = store.due_matches(conn, self.matches.schema, clock.now(), limit)
        visited = 0
        with self.matches.reading() as claims:
            for start in range(0, len(ids), BATCH):
                chunk = sweep_store.claim_many(claims, self.matches.schema, ids[start : start + BATCH])
                try:
                    self._sweep_batch(chunk)
                finally:
                    sweep_store.release_many(claims, self.matches.schema, chunk)
                visited += len(chunk)
        return visited

    def _sweep_batch(self, match_ids: list[str]) -> None:
        try:
            ticked = self.ticker.tick(match_ids)
        except Exception:
            log.exception("sweep: a batch of %d matches failed; ticking them one by one", len(match_ids))
            ticked = Ticked({}, list(match_ids))
        for match_id in match_ids:
            m = ticked.matches.get(match_id)
            try:
                if match_id in ticked.left:
                    self.system.tick(match_id)
                if m is None or m.bot is not None:  # only a practice match has a bot to move
                    self.bot.bot_turn(match_id)
            except Exception:
                log.exception("sweep: match %s failed", match_id)
