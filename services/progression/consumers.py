"""Handlers of other services' events (subscriptions declared in ``root.py``; run with
``python -m libs.kit.consume progression``).

- ``PlayerLoggedIn {player_id}`` on ``arcana.accounts.events``: the visit's UTC day is
  the envelope's ``occurred_at`` date; the first of the day keeps the streak.
- ``MatchEnded`` on ``arcana.match.events``: moves both players' quests and passes; the match's day
  and season are those of its ``occurred_at``.

Each handler decodes its event first (``libs.contracts``): one that does not decode is a dead
letter. Each event is applied once (the kit's idempotent consumer: inbox row and effect in one
transaction); the streams themselves also refuse to count a match or a day twice.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

import psycopg

from libs.contracts import MatchEnded, PlayerLoggedIn
from libs.eventstore import RecordedEvent
from services.progression.domain import MatchResult, RecordMatch, RecordVisit
from services.progression.service import ProgressionService

log = logging.getLogger(__name__)

CONSUMER = "progression"
PLAYER_LOGGED_IN = PlayerLoggedIn.TYPE
MATCH_ENDED = MatchEnded.TYPE


def utc_day(event: RecordedEvent) -> dt.date:
    """The UTC date of the event's ``occurred_at``."""
    return event.occurred_at.astimezone(dt.UTC).date()


def player_logged_in(svc: ProgressionService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    player = PlayerLoggedIn.decode(event).player_id
    svc.record_visit(RecordVisit(player, utc_day(event)), conn)


def match_ended(svc: ProgressionService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    match = MatchResult.from_event(MatchEnded.decode(event), utc_day(event))
    svc.record_match(RecordMatch(match), conn)
