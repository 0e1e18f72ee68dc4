"""Handlers of other services' events (declared as subscriptions in ``root.py``; run with
``python -m libs.kit.consume match``): each decodes and hands over to the use case.

- ``MatchRequested`` (``arcana.matchmaking.events``): ``request_id`` (the event id when absent),
  ``game`` (``arcana`` when absent), ``mode`` (``ranked`` | ``casual``) and ``players`` (``{"id",
  "deck"}`` per seat) start a match, or a ``MatchRequestRejected`` (``creation.requested``);
- ``PlayerRegistered`` (``arcana.accounts.events``): the players that exist (for requests);
- ``ActiveDeckChanged`` (``arcana.economy.events``): each player's active deck (practice, requests).
"""

from __future__ import annotations

import logging
from typing import Any

import psycopg

from libs.eventstore import RecordedEvent
from services.match.service import MatchService

log = logging.getLogger(__name__)

CONSUMER = "match-requests"
MATCH_REQUESTED = "MatchRequested"


def request_match(svc: MatchService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> str | None:
    """Start (or reject) the match of one MatchRequested in the consumer's transaction; returns the
    match id, or None when the request was already handled."""
    return svc.creation.requested(event, conn)


ACTIVE_DECK_CONSUMER = "match-active-decks"
ACTIVE_DECK_CHANGED = "ActiveDeckChanged"


def active_deck_changed(svc: MatchService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    """Keep the player's active deck from economy's ``ActiveDeckChanged`` (for practice matches)."""
    data = event.data
    if not isinstance(data.get("player_id"), str) or not isinstance(data.get("cards"), list):
        log.error("ActiveDeckChanged %s is malformed; skipped", event.event_id)
        return
    svc.creation.keep_active_deck(data, event.version, conn)


PLAYERS_CONSUMER = "match-players"
PLAYER_REGISTERED = "PlayerRegistered"


def player_registered(svc: MatchService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    """Keep that the player exists, from accounts' ``PlayerRegistered`` (for match requests)."""
    player_id = event.data.get("player_id")
    if not isinstance(player_id, str) or not player_id:
        log.error("PlayerRegistered %s is malformed; skipped", event.event_id)
        return
    svc.creation.keep_player(player_id, conn)
