"""What ratings consumes (subscriptions declared in ``root.py``; run: ``python -m libs.kit.consume
ratings``). Each handler runs in the consumer's transaction with the inbox row, so a redelivered
event changes nothing; it decodes the event first (``libs.contracts``): one that does not decode is
a dead letter.

- ``MatchCreated`` (``arcana.match.lifecycle``): a ranked match between humans started; ratings
  keeps its id and players (``started_matches``).
- ``MatchEnded`` (``arcana.match.lifecycle``, after its ``MatchCreated``: one stream, one partition):
  a counted ranked match moves both ratings, on the ladder of its game (Arcana's rating or the line's
  MMR); a ranked result of a match never seen start, or with other players, is a dead letter.
- ``PlayerRegistered``, ``DisplayNameChanged`` (``arcana.accounts.events``): the public name shown
  on the leaderboard (the default one, then the player's choice); never the username.
- ``AccountDeleted`` (``arcana.accounts.events``): the player was erased; the leaderboard shows the
  pseudonym instead of the name they chose (their rating and history stay).
"""

from __future__ import annotations

from typing import Any

import psycopg

from libs.contracts import (
    AccountDeleted,
    DisplayNameChanged,
    MatchCreated,
    MatchEnded,
    PlayerRegistered,
    Unacceptable,
    default_display_name,
)
from libs.eventstore import RecordedEvent
from services.ratings.service import NeverStarted, RatingsService

MATCHES_CONSUMER = "ratings-matches"
ACCOUNTS_CONSUMER = "ratings-accounts"
MATCH_CREATED, MATCH_ENDED, PLAYER_REGISTERED = MatchCreated.TYPE, MatchEnded.TYPE, PlayerRegistered.TYPE
DISPLAY_NAME_CHANGED, ACCOUNT_DELETED = DisplayNameChanged.TYPE, AccountDeleted.TYPE


def match_created(svc: RatingsService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    svc.match_started(MatchCreated.decode(event), conn)


def match_ended(svc: RatingsService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    """Rate it; a ranked result for a match never seen start is refused for good (a dead letter)."""
    try:
        svc.record_match(MatchEnded.decode(event), conn)
    except NeverStarted as refused:
        raise Unacceptable(f"MatchEnded {event.event_id} not rated: {refused}") from None


def display_name(svc: RatingsService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    """``PlayerRegistered`` (the default name), ``DisplayNameChanged`` (the chosen one) or
    ``AccountDeleted`` (the pseudonym): the name others see, at the version of the player's stream
    it was written at (a name redelivered after the deletion changes nothing)."""
    if event.type == DISPLAY_NAME_CHANGED:
        changed = DisplayNameChanged.decode(event)
        svc.remember_display_name(changed.player_id, changed.display_name, event.version, conn)
    elif event.type == ACCOUNT_DELETED:
        deleted = AccountDeleted.decode(event)
        svc.remember_display_name(deleted.player_id, deleted.pseudonym, event.version, conn)
    else:
        registered = PlayerRegistered.decode(event)
        shown = default_display_name(registered.player_id)
        svc.remember_display_name(registered.player_id, shown, event.version, conn)
