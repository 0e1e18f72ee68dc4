"""What economy consumes and pays: ``PlayerRegistered`` and ``PlayerLoggedIn`` (accounts),
``MatchEnded`` (match: every game's, coins or the line's shards), ``TournamentPlaceAwarded`` (match: a
tournament place, paid by the game's prize table; it closes the entry), ``RewardGranted`` (progression),
and the facts rewards pay for, ``QuestCompleted`` and ``StreakDayKept`` (progression: kept, so a
``RewardGranted`` is paid only when it names one it saw and pays what that one earned).
A reward above what its rule can pay (``domain.bounds``), or a match's credit beyond the player's
paying matches of the UTC day (economy counts them itself, as ``paying_matches_left`` shows them),
raises ``Unacceptable``: the consumer parks it as a dead letter at once.

Each handler decodes its event first (``libs.contracts``): one that does not decode, or a reward
that pays nothing valid, is a dead letter (never skipped). Every message is applied once through
the inbox (``libs.bus.consumer``); on top of that every credit's event id is derived from its
source (``service.credit_event_id``), so the same payment can never be written twice: not on a
redelivery, a consumer restart, a replayed broker, nor an event republished with another id.
Events of different streams arrive in any order: a credit for a player whose ``PlayerRegistered``
has not arrived yet is kept, and the opening adds to it.

Declared as a subscription in ``root.py``; run with ``python -m libs.kit.consume economy``.
"""

from __future__ import annotations

import logging
from typing import Any

import psycopg

from libs.contracts import (
    MalformedEvent,
    MatchEnded,
    PlayerLoggedIn,
    PlayerRegistered,
    QuestCompleted,
    RewardGranted,
    StreakDayKept,
    Unacceptable,
)
from libs.contracts.tournament import TournamentPlaceAwarded
from libs.eventstore import RecordedEvent
from libs.kit.definition import EventHandler
from services.economy import store
from services.economy.domain import AlreadyCredited, AlreadyOpened, DailyLimitReached
from services.economy.domain.bounds import reward_problems
from services.economy.domain.credits import (
    PlayerCredit,
    PlayerShards,
    daily_login,
    match_credits,
    reward_credit,
    tournament_credit,
)
from services.economy.domain.sources import of_quest, of_streak, source_problems
from services.economy.service import EconomyService

log = logging.getLogger(__name__)

CONSUMER = "economy-credits"


def _pay(svc: EconomyService, paid: PlayerCredit | PlayerShards, conn: psycopg.Connection[Any]) -> bool:
    """Pay one credit in the consumer's transaction; False when it was paid already."""
    try:
        svc.credit(paid, conn=conn)
    except AlreadyCredited:
        log.info("%s for %s was paid already", paid.credit.source, paid.player_id)
        return False
    return True


def registered(svc: EconomyService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    player = PlayerRegistered.decode(event).player_id
    try:
        svc.open_account(player, conn=conn, registered_at=event.occurred_at)
    except AlreadyOpened:
        log.info("player %s has a wallet already", player)


def logged_in(svc: EconomyService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    _pay(svc, daily_login(PlayerLoggedIn.decode(event).player_id, event.occurred_at), conn)


def match_ended(svc: EconomyService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    """Pay what the verdict says, within the daily limit economy keeps itself: a credit beyond it
    (a verdict that claims more than ``paying_matches_left`` allows) parks the whole event as a dead
    letter, nothing of it paid."""
    try:
        for paid in match_credits(MatchEnded.decode(event), event.occurred_at):
            _pay(svc, paid, conn)
    except DailyLimitReached as refused:
        raise Unacceptable(f"MatchEnded {event.event_id} not paid: {refused.message}") from None


def reward(svc: EconomyService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    granted = RewardGranted.decode(event)
    paid = reward_credit(granted, event.occurred_at)
    if paid is None:
        raise MalformedEvent(f"RewardGranted {event.event_id} pays nothing valid: {event.data!r:.300}")
    problems = reward_problems(paid.player_id, granted.reward_id, paid.credit)
    if not problems:
        problems = source_problems(granted, store.reward_source(conn, svc.schema, granted.reward_id))
    if problems and store.credited(conn, svc.schema, paid.player_id, paid.credit.source):
        log.info("%s for %s was paid already", paid.credit.source, paid.player_id)  # before sources
        return
    if problems:  # more than its rule can pay, not its rule's, or not what its source earned: parked
        raise Unacceptable(f"RewardGranted {event.event_id} not paid: {'; '.join(problems)}")
    _pay(svc, paid, conn)


def reward_source(svc: EconomyService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    """``QuestCompleted`` or ``StreakDayKept``: keep what it earns, for its ``RewardGranted``."""
    if event.type == QuestCompleted.TYPE:
        source = of_quest(QuestCompleted.decode(event))
    else:
        source = of_streak(StreakDayKept.decode(event))
    store.save_reward_source(conn, svc.schema, source, event.occurred_at)


def place_awarded(svc: EconomyService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    """Pay a tournament place once (its source ``tournament:<id>:<player>``) and close the entry; an
    award that is not what the game's prize table pays for the place is parked, never paid."""
    awarded = TournamentPlaceAwarded.decode(event)
    paid = tournament_credit(awarded, event.occurred_at)
    if paid is None:
        raise Unacceptable(f"TournamentPlaceAwarded {event.event_id} is not what its place pays")
    _pay(svc, paid, conn)
    svc.line.close_entry(awarded.player_id, awarded.entry_id, awarded.tournament_id, awarded.place, conn)


HANDLERS: dict[str, EventHandler] = {
    PlayerRegistered.TYPE: registered,
    PlayerLoggedIn.TYPE: logged_in,
    MatchEnded.TYPE: match_ended,
    RewardGranted.TYPE: reward,
    QuestCompleted.TYPE: reward_source,
    StreakDayKept.TYPE: reward_source,
    TournamentPlaceAwarded.TYPE: place_awarded,
}
"""Event type -> handler(service, event, conn), the subscription declared in ``root.py``."""
