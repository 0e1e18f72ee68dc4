"""The beat's sweep: whatever is due in every running match (deadlines passed while workers were down,
lost tasks, a bot to move, presence changes); overlapping sweeps share the due matches."""

from __future__ import annotations

import logging

from libs import clock
from services.match import store
from services.match.bot import BotPlayer
from services.match.loading import MatchLoader
from services.match.system import SystemCommands

log = logging.getLogger(__name__)


def sweep(loader: MatchLoader, system: SystemCommands, bot: BotPlayer, schema: str, limit: int = 500) -> int:
    """``tick`` and ``bot_turn`` every match where something may be due (at most ``limit``) that no other
    sweep is working on; a match that fails is logged and skipped. Returns the matches visited.

    Sweeps overlap: the beat sends one every 2 s and each Celery process may run one, while one sweep
    over many due matches (after an outage, every running match) takes longer. Each claims a match
    before ticking it (``store.claim_for_sweep``) and passes over those another sweep holds, so
    overlapping sweeps share the due matches instead of racing through the same ones in step."""
    with loader.reading() as conn:
        ids = store.due_matches(conn, schema, clock.now(), limit)
    visited = 0
    with loader.reading() as claims:
        for match_id in ids:
            if not store.claim_for_sweep(claims, schema, match_id):
                continue
            try:
                system.tick(match_id)
                bot.bot_turn(match_id)
            except Exception:
                log.exception("sweep: match %s failed", match_id)
            finally:
                store.release_sweep_claim(claims, schema, match_id)
            visited += 1
    return visited
