"""The beat's sweep: whatever is due in every running match (deadlines passed while workers were down,
lost tasks, a bot to move, presence changes)."""

from __future__ import annotations

import logging

from libs import clock
from services.match import store
from services.match.bot import BotPlayer
from services.match.loading import MatchLoader
from services.match.system import SystemCommands

log = logging.getLogger(__name__)


def sweep(loader: MatchLoader, system: SystemCommands, bot: BotPlayer, schema: str, limit: int = 500) -> int:
    """``tick`` and ``bot_turn`` every match where something may be due (at most ``limit``); a match
    that fails is logged and skipped. Returns the matches visited."""
    with loader.reading() as conn:
        ids = store.due_matches(conn, schema, clock.now(), limit)
    for match_id in ids:
        try:
            system.tick(match_id)
            bot.bot_turn(match_id)
        except Exception:
            log.exception("sweep: match %s failed", match_id)
    return len(ids)
