"""Consumes ``MatchRequested`` from ``arcana.matchmaking.events`` and starts the match.

Declared as a subscription in ``root.py``; run with ``python -m libs.kit.consume match``.

MatchRequested data: ``request_id`` (str; the event id when absent), ``mode`` (``ranked`` |
``casual``) and ``players`` (two ``{"id"}``: each plays their active deck as economy published
it; older requests carry ``{"id", "deck": [20 card ids]}``, vetted against it). The match id is
``match_id_for(request_id)`` (a UUID5), so the same request can never make two matches: a second
delivery, a republished event or another event with the same request id finds the stream taken.
An illegal request (a deck the rules refuse, a bad mode or players), and one that disagrees with
what match knows (``vetting``: a player accounts never registered, a deck that is not the player's
active deck) gets a ``MatchRequestRejected`` event (reason ``invalid_deck`` | ``invalid_mode`` |
``invalid_players`` | ``unknown_player`` | ``deck_mismatch``, a message and details)
in the stream ``match-<that id>``, published on ``arcana.match.events`` like every match event.
"""

from __future__ import annotations

import logging
from typing import Any

import psycopg

from libs.contracts import match_id_for
from libs.eventstore import RecordedEvent
from libs.rules import RuleViolation
from services.match import domain, vetting
from services.match.errors import MatchExists
from services.match.service import MatchService

log = logging.getLogger(__name__)

CONSUMER = "match-requests"
MATCH_REQUESTED = "MatchRequested"


def request_match(svc: MatchService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> str | None:
    """Start (or reject) the match of one MatchRequested in the consumer's transaction; returns the
    match id, or None when the request was already handled."""
    data = event.data
    request_id = str(data.get("request_id") or event.event_id)
    match_id = match_id_for(request_id)
    mode, players = data.get("mode"), vetting.with_active_decks(conn, svc.schema, data.get("players"))
    problem = domain.request_problem(mode, players) or svc.request_mismatch(list(players or ()), conn)
    if problem is None:
        try:
            outcome = svc.create_match(
                str(mode), list(players or ()), request_id=request_id, match_id=match_id, conn=conn
            )
        except MatchExists:
            log.info("match request %s: match %s exists already", request_id, match_id)
            return None
        except RuleViolation as exc:  # the rules' own verdict on the setup
            problem = (str(exc.code.value), exc.message, None)
        else:
            svc.dispatch(outcome)  # before the commit: a deadline task only looks, the sweep backs it up
            return match_id
    reason, message, details = problem
    events = domain.rejected_request_events(match_id, request_id, mode, players, reason, message, details)
    if not svc.reject_request(match_id, events, conn):
        return None
    log.info("match request %s rejected: %s", request_id, message)
    return match_id


ACTIVE_DECK_CONSUMER = "match-active-decks"
ACTIVE_DECK_CHANGED = "ActiveDeckChanged"


def active_deck_changed(svc: MatchService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    """Keep the player's active deck from economy's ``ActiveDeckChanged`` (for practice matches)."""
    data = event.data
    if not isinstance(data.get("player_id"), str) or not isinstance(data.get("cards"), list):
        log.error("ActiveDeckChanged %s is malformed; skipped", event.event_id)
        return
    svc.keep_active_deck(data, event.version, conn)


PLAYERS_CONSUMER = "match-players"
PLAYER_REGISTERED = "PlayerRegistered"


def player_registered(svc: MatchService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    """Keep that the player exists, from accounts' ``PlayerRegistered`` (for match requests)."""
    player_id = event.data.get("player_id")
    if not isinstance(player_id, str) or not player_id:
        log.error("PlayerRegistered %s is malformed; skipped", event.event_id)
        return
    svc.keep_player(player_id, conn)
