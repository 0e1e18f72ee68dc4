"""Suspended players (accounts' ``AccountSuspended`` / ``AccountRestored`` on
``arcana.accounts.events``, in the consumer of the players; docs/operations.md, "Operator actions").

A suspension forfeits each running match of the player (the game's ``forfeit`` with the reason
``suspended``: with two players the other wins, with more the others play on), in the consumer's
transaction, and keeps the player in ``suspended_players``: a match request naming them is refused
as ``unknown_player`` (``MatchCreation.request_mismatch``), so matchmaking returns the tickets to
waiting. A restoration removes the row. A redelivery changes nothing (the inbox row; an ended match
is not forfeited twice).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import psycopg

from libs.contracts import AccountRestored, AccountSuspended
from libs.eventstore import RecordedEvent, UnitOfWork
from libs.games import IllegalCommand
from libs.kit.definition import EventHandler
from services.match import domain, store
from services.match.repository import Outcome
from services.match.suspended import forget, keep

if TYPE_CHECKING:
    from services.match.service import MatchService

log = logging.getLogger(__name__)

SUSPENDED = "suspended"  # the forfeit's reason (the match's end reason with two players)

Conn = psycopg.Connection[Any]


def account_suspended(svc: MatchService, event: RecordedEvent, conn: Conn) -> None:
    player = AccountSuspended.decode(event).player_id
    keep(conn, svc.schema, player)
    for row in store.matches_of(conn, svc.schema, player, active_only=True):
        outcome = forfeit(svc, str(row["match_id"]), player, conn)
        if outcome is not None:  # before the commit: a deadline task only looks, the sweep backs it up
            svc.dispatcher.dispatch(outcome)


def account_restored(svc: MatchService, event: RecordedEvent, conn: Conn) -> None:
    player = AccountRestored.decode(event).player_id
    forget(conn, svc.schema, player)


def forfeit(svc: MatchService, match_id: str, player: str, conn: Conn) -> Outcome | None:
    """``player`` forfeits ``match_id`` in ``conn``'s transaction (a savepoint, decided again after a
    lost race); None when the match has ended or the player already left it."""

    def command(uow: UnitOfWork) -> Outcome | None:
        m = svc.matches.load(match_id, uow.conn)
        if m is None or m.ended or m.rules is None or player not in domain.watched(m):
            return None
        decision = domain.decide_match(m, domain.game_of(m).forfeit(player, SUSPENDED))
        return svc.matches.record(uow, m, match_id, decision)

    try:
        return svc.matches.execute(command, conn=conn)
    except IllegalCommand as exc:
        log.error("match %s: the suspended player's forfeit was refused: %s", match_id, exc)
        return None


HANDLERS: dict[str, EventHandler] = {
    AccountSuspended.TYPE: account_suspended,
    AccountRestored.TYPE: account_restored,
}
