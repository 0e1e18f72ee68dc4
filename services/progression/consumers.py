"""Progression's consumers: log-ins keep the streak, ended matches move quests and the pass.

- ``arcana.accounts.events``: ``PlayerLoggedIn {player_id, username}``; the visit's UTC day is the
  envelope's ``occurred_at`` date. ``PlayerRegistered`` needs nothing (state starts empty).
- ``arcana.match.events``: ``MatchEnded``; the match's day and season are those of its
  ``occurred_at``. Other match events are ignored.

Each event is applied once (the inbox of ``libs.bus.consumer``), in the transaction of the events it
appends; the streams themselves also refuse to count a match or a day twice.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

import psycopg

from libs.bus import ConsumerRunner, run_consumer_process, topic_for
from libs.bus.consumer import Handler
from libs.eventstore import RecordedEvent
from services.progression.domain import MatchResult, RecordMatch, RecordVisit
from services.progression.service import ProgressionService

log = logging.getLogger(__name__)

CONSUMER = "progression"
TOPICS = (topic_for("accounts"), topic_for("match"))
PLAYER_LOGGED_IN = "PlayerLoggedIn"
MATCH_ENDED = "MatchEnded"


def handler_for(svc: ProgressionService) -> Handler:
    """The handler applying one consumed event with ``svc`` in the consumer's transaction."""

    def handle(event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
        if event.type == PLAYER_LOGGED_IN:
            player = event.data.get("player_id")
            if not isinstance(player, str) or not player:
                log.error("PlayerLoggedIn %s without a player id: ignored", event.event_id)
                return
            svc.record_visit(RecordVisit(player, utc_day(event)), conn, event)
        elif event.type == MATCH_ENDED:
            try:
                match = MatchResult.from_event(event.data, utc_day(event))
            except (KeyError, TypeError, ValueError) as exc:
                log.error("MatchEnded %s unreadable (%r): ignored", event.event_id, exc)
                return
            svc.record_match(RecordMatch(match), conn, event)

    return handle


def utc_day(event: RecordedEvent) -> dt.date:
    """The UTC date of the event's ``occurred_at``."""
    return event.occurred_at.astimezone(dt.UTC).date()


def build_runner(svc: ProgressionService, bootstrap: str, *, name: str = CONSUMER) -> ConsumerRunner:
    return ConsumerRunner(svc.pool, svc.schema, name, list(TOPICS), handler_for(svc), bootstrap)


def main() -> None:
    import os

    from libs.bus.process import require_env
    from libs.db import make_pool

    pool = make_pool(require_env("DATABASE_URL"), min_size=1, max_size=4, name="progression-consumers")
    try:
        svc = ProgressionService(pool, os.environ.get("ARCANA_PROGRESSION_SCHEMA", "progression"))
        run_consumer_process(build_runner(svc, require_env("KAFKA_BOOTSTRAP_SERVERS")))
    finally:
        pool.close()


if __name__ == "__main__":
    main()
