"""What ratings consumes (subscriptions declared in ``root.py``; run: ``python -m libs.kit.consume
ratings``). Each handler runs in the consumer's transaction with the inbox row, so a redelivered
event changes nothing; it decodes the event first (``libs.contracts``): one that does not decode is
a dead letter.

- ``MatchEnded`` (``arcana.match.events``): a counted ranked match moves both ratings.
- ``PlayerRegistered`` (``arcana.accounts.events``): the username shown on the leaderboard.
"""

from __future__ import annotations

from typing import Any

import psycopg

from libs.contracts import MatchEnded, PlayerRegistered
from libs.eventstore import RecordedEvent
from services.ratings.service import RatingsService

MATCHES_CONSUMER = "ratings-matches"
ACCOUNTS_CONSUMER = "ratings-accounts"
MATCH_ENDED, PLAYER_REGISTERED = MatchEnded.TYPE, PlayerRegistered.TYPE


def match_ended(svc: RatingsService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    svc.record_match(MatchEnded.decode(event), conn, cause=event.event_id)


def player_registered(svc: RatingsService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    svc.remember_username(PlayerRegistered.decode(event), conn)
