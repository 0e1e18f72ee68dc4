"""Operator actions on accounts: suspend and restore (docs/operations.md, "Operator actions").

A suspension raises the player's token version (``AllSessionsRevoked``: every token refused, in
every service once its consumer hears of it), appends ``AccountSuspended`` (matchmaking cancels the
player's waiting tickets, match forfeits their running matches) and the ``OperatorActed`` of the
``audit`` stream, in one transaction with the ``suspensions`` row that refuses log-ins. A
restoration deletes the row and appends ``AccountRestored`` and its ``OperatorActed``.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from psycopg import sql

from libs import clock
from libs.contracts import AccountRestored, AccountSuspended, AllSessionsRevoked, OperatorActed
from libs.contracts.audit import AUDIT_STREAM, RESTORE_ACCOUNT, SUSPEND_ACCOUNT
from libs.eventstore import Expect, Transaction, UnitOfWork
from services.accounts import domain, store
from services.accounts.domain import NoSuchAccount
from services.accounts.suspended import AlreadySuspended, NotSuspended, is_suspended, suspensions_table

if TYPE_CHECKING:
    from services.accounts.service import AccountsService


def _audit(uow: UnitOfWork, action: str, player_id: uuid.UUID, operator: str, reason: str) -> None:
    entry = OperatorActed(action, operator, reason, str(player_id), domain.player_stream(player_id))
    uow.append(AUDIT_STREAM, Expect.ANY, [entry], occurred_at=clock.now())


def _locked(uow: UnitOfWork, schema: str, player_id: uuid.UUID) -> int:
    """Lock the player's row; its token version. Raises ``NoSuchAccount`` (none, or deleted)."""
    try:
        return store.lock_player(uow.conn, schema, player_id)
    except domain.UnknownPlayer:
        raise NoSuchAccount() from None


def suspend(
    svc: AccountsService,
    player_id: uuid.UUID,
    operator: str,
    reason: str,
    transaction: Transaction | None = None,
) -> None:
    """Suspend the account (see the module). Raises ``NoSuchAccount``, ``AlreadySuspended``;
    nothing is written then."""
    schema, now = svc.schema, clock.now()

    def work(uow: UnitOfWork) -> None:
        _locked(uow, schema, player_id)
        if is_suspended(uow.conn, schema, player_id):
            raise AlreadySuspended()
        version = store.raise_token_version(uow.conn, schema, player_id)
        stream = domain.player_stream(player_id)
        events = [AllSessionsRevoked(str(player_id), version), AccountSuspended(str(player_id))]
        uow.append(stream, Expect.STREAM_EXISTS, events, occurred_at=now)
        uow.conn.execute(
            sql.SQL("INSERT INTO {} (player_id, suspended_at) VALUES (%s, %s)").format(
                suspensions_table(schema)
            ),
            (player_id, now),
        )
        _audit(uow, SUSPEND_ACCOUNT, player_id, operator, reason)

    svc.repository.execute(work, transaction=transaction)
    if svc.sessions is not None:  # this process refuses the tokens at once
        svc.sessions.forget(player_id)


def restore(
    svc: AccountsService,
    player_id: uuid.UUID,
    operator: str,
    reason: str,
    transaction: Transaction | None = None,
) -> None:
    """Lift the suspension. Raises ``NoSuchAccount``, ``NotSuspended``; nothing is written then."""
    schema = svc.schema

    def work(uow: UnitOfWork) -> None:
        _locked(uow, schema, player_id)
        deleted = uow.conn.execute(
            sql.SQL("DELETE FROM {} WHERE player_id = %s").format(suspensions_table(schema)), (player_id,)
        ).rowcount
        if not deleted:
            raise NotSuspended()
        stream = domain.player_stream(player_id)
        uow.append(stream, Expect.STREAM_EXISTS, [AccountRestored(str(player_id))], occurred_at=clock.now())
        _audit(uow, RESTORE_ACCOUNT, player_id, operator, reason)

    svc.repository.execute(work, transaction=transaction)
