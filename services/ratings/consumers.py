"""What ratings consumes (subscriptions declared in ``root.py``; run: ``python -m libs.kit.consume
ratings``). Each handler runs in the consumer's transaction with the inbox row, so a redelivered
event changes nothing.

- ``MatchEnded`` (``arcana.match.events``): a counted ranked match moves both ratings.
- ``PlayerRegistered``, ``DisplayNameChanged`` (``arcana.accounts.events``): the public name shown
  on the leaderboard (the default one, then the player's choice); never the username.
"""

from __future__ import annotations

from typing import Any

import psycopg

from libs.eventstore import RecordedEvent
from services.ratings.service import RatingsService

MATCHES_CONSUMER = "ratings-matches"
ACCOUNTS_CONSUMER = "ratings-accounts"
MATCH_ENDED, PLAYER_REGISTERED, DISPLAY_NAME_CHANGED = "MatchEnded", "PlayerRegistered", "DisplayNameChanged"


def match_ended(svc: RatingsService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    svc.record_match(event.data, conn, cause=event.event_id)


def display_name(svc: RatingsService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    """``PlayerRegistered`` or ``DisplayNameChanged``: the name others see."""
    svc.remember_display_name(event.data, event.version, conn)
