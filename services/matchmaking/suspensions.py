"""A suspended player's tickets leave the queue (accounts' ``AccountSuspended``; docs/operations.md,
"Operator actions"): each waiting ticket of the player gets a ``TicketCancelled`` with the reason
``suspended``, in the consumer's transaction (its inbox row makes a redelivery change nothing). A
ticket already paired is left to its match request: the match service refuses a request naming a
suspended player, or forfeits the match once it hears of the suspension."""

from __future__ import annotations

from typing import Any

import psycopg

from libs import clock
from libs.contracts import AccountSuspended
from libs.eventstore import ConcurrencyError, RecordedEvent, UnitOfWork
from libs.kit.definition import EventHandler
from services.matchmaking import domain, store
from services.matchmaking.service import MatchmakingService

CONSUMER = "matchmaking-suspensions"
ACCOUNT_SUSPENDED = AccountSuspended.TYPE
SUSPENDED = "suspended"  # a TicketCancelled's reason


def account_suspended(svc: MatchmakingService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    player = AccountSuspended.decode(event).player_id
    now = clock.now()

    def cancel(uow: UnitOfWork) -> None:
        ticket_id = store.open_ticket_of(uow.conn, svc.schema, player)
        t = svc.load(ticket_id, uow) if ticket_id else None
        if t is None or t.status != domain.WAITING:
            return
        cancelled = domain.cancel(t, SUSPENDED, now)
        try:
            with uow.conn.transaction():  # lost to the pairing pass: the ticket is paired, not waiting
                uow.append(domain.ticket_stream(t.ticket_id), t.version, [cancelled], occurred_at=now)
        except ConcurrencyError:
            return

    svc.repository.execute(cancel, conn=conn)


HANDLERS: dict[str, EventHandler] = {ACCOUNT_SUSPENDED: account_suspended}
