"""Handlers of other services' events (declared as subscriptions in ``root.py``; run with
``python -m libs.kit.consume match``): each decodes and hands over to the use case.

- ``MatchRequested`` (``arcana.matchmaking.events``): ``request_id`` (the event id when absent),
  ``game`` (``arcana`` when absent, ``line``, ``arena``), ``mode`` (``ranked`` | ``casual``) and
  ``players`` (one ``{"id"}`` per seat: two, 2 to 4 in the arena; each plays their active deck of
  the game as economy published it, none in the arena; older requests carry ``{"id", "deck"}``,
  vetted against it) start a match, or a ``MatchRequestRejected`` (``creation.requested``);
- ``PlayerRegistered`` (``arcana.accounts.events``): the players that exist (for requests);
- ``ActiveDeckChanged`` (``arcana.economy.decks``, in full: economy's public topic carries no
  cards, and only match's Kafka user may read this one): each player's active deck per game
  (practice, requests);
- ``TournamentEntryMade`` (``arcana.economy.decks``, in full): an entry of a game's tournament,
  seated in that game's filling bracket (``usecases/tournaments.py``).
"""

from __future__ import annotations

from typing import Any

import psycopg

from libs.contracts import ActiveDeckChangedInFull, PlayerRegistered
from libs.contracts.tournament import TournamentEntryMadeInFull
from libs.eventstore import RecordedEvent
from services.match.service import MatchService

CONSUMER = "match-requests"
MATCH_REQUESTED = "MatchRequested"


def request_match(svc: MatchService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> str | None:
    """Start (or reject) the match of one MatchRequested in the consumer's transaction; returns the
    match id, or None when the request was already handled. Read leniently, not by
    ``libs.contracts.MatchRequested.decode``: a request that cannot start a match is answered with a
    ``MatchRequestRejected`` (matchmaking then frees its tickets), never a dead letter, which would
    leave its players waiting."""
    return svc.creation.requested(event, conn)


ACTIVE_DECK_CONSUMER = "match-active-decks"
ACTIVE_DECK_CHANGED = ActiveDeckChangedInFull.TYPE
TOURNAMENT_ENTRY_MADE = TournamentEntryMadeInFull.TYPE


def tournament_entry_made(svc: MatchService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    """An entry of a game's tournament (economy checked the cards): seated in the filling bracket."""
    svc.tournaments.enter(event, conn)


def active_deck_changed(svc: MatchService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    """Keep the player's active deck from economy's ``ActiveDeckChanged`` (for practice matches and
    requests); a malformed one is a dead letter (``MalformedEvent``)."""
    deck = ActiveDeckChangedInFull.decode(event)
    svc.creation.keep_active_deck(deck.data(), event.version, conn)


PLAYERS_CONSUMER = "match-players"
PLAYER_REGISTERED = PlayerRegistered.TYPE


def player_registered(svc: MatchService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    """Keep that the player exists, from accounts' ``PlayerRegistered`` (for match requests); a
    malformed one is a dead letter (``MalformedEvent``)."""
    svc.creation.keep_player(PlayerRegistered.decode(event).player_id, conn)
