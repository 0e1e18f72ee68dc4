"""What matchmaking consumes (subscriptions declared in ``root.py``; run: ``python -m libs.kit.consume
matchmaking``). Each handler runs in the consumer's transaction with the inbox row, so a redelivered
event changes nothing; it decodes the event first (``libs.contracts``): one that does not decode is
a dead letter.

- ``ActiveDeckChanged`` (economy): the deck a ticket plays and whether it is legal.
- ``RatingChanged`` (ratings): the rating a ranked ticket is paired by.
- ``MatchCreated`` / ``MatchRequestRejected`` (match): the paired tickets of that request become
  ``matched`` / ``failed``; a ranked or casual ``MatchCreated`` and its ``MatchEnded`` bracket the
  time its players cannot queue (one match at a time).
"""

from __future__ import annotations

from typing import Any

import psycopg

from libs.eventstore import RecordedEvent
from libs.kit.definition import EventHandler
from services.matchmaking.service import (
    ACTIVE_DECK_CHANGED,
    MATCH_CREATED,
    MATCH_ENDED,
    MATCH_REQUEST_REJECTED,
    RATING_CHANGED,
    MatchmakingService,
)

DECKS_CONSUMER = "matchmaking-decks"
RATINGS_CONSUMER = "matchmaking-ratings"
MATCHES_CONSUMER = "matchmaking-matches"


def handle(svc: MatchmakingService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    svc.handle(event, conn)


DECK_HANDLERS: dict[str, EventHandler] = {ACTIVE_DECK_CHANGED: handle}
RATING_HANDLERS: dict[str, EventHandler] = {RATING_CHANGED: handle}
MATCH_HANDLERS: dict[str, EventHandler] = {
    MATCH_CREATED: handle,
    MATCH_REQUEST_REJECTED: handle,
    MATCH_ENDED: handle,
}
