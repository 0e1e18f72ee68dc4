"""Operator actions on wallets: refunds and claw-backs (docs/operations.md, "Operator actions").

Neither edits a past event: a refund is a ``WalletCredited`` (reason ``refund``, source
``refund:<id>``, paid once per id, up to the grant ceiling), a claw-back a ``WalletDebited``
(source ``claw_back:<id>``, never more than the wallet holds). Each is appended with the
``OperatorActed`` of economy's ``audit`` stream in one transaction: both or nothing.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass

from libs import clock
from libs.contracts import OperatorActed
from libs.contracts.audit import AUDIT_STREAM, CLAW_BACK, REFUND
from libs.eventstore import DuplicateEventError, Expect, RecordedEvent, Transaction, UnitOfWork
from services.economy.domain import AboveCeiling, AlreadyCredited, WalletNotFound, wallet
from services.economy.events import Event
from services.economy.service import EconomyService, credit_event_id, wallet_stream

Decide = Callable[[wallet.Wallet | None], list[Event]]


@dataclass(frozen=True)
class Adjustment:
    """What an operator pays back or takes back, for whom, under which id, and who and why."""

    player_id: str
    adjustment_id: str
    operator: str
    reason: str
    coins: int = 0
    dust: int = 0
    free_packs: int = 0


def refund(svc: EconomyService, a: Adjustment, tx: Transaction | None = None) -> RecordedEvent:
    """Credit ``a`` to an opened wallet. Raises ``AboveCeiling``, ``WalletNotFound``,
    ``AlreadyCredited`` (this id was refunded), ``InvalidAmount``; nothing is written then."""
    source = f"refund:{a.adjustment_id}"
    credit = wallet.Credit(source, REFUND, a.coins, a.dust, a.free_packs, note=a.reason)
    problems = svc.grant_ceiling.problems(credit)
    if problems:
        raise AboveCeiling("; ".join(problems), {"problems": problems})

    def decide(current: wallet.Wallet | None) -> list[Event]:
        if current is None or not current.opened:
            raise WalletNotFound("this player has no wallet yet")
        return wallet.decide_credit(current, credit, player_id=a.player_id, now=clock.now())

    return _adjust(svc, a, REFUND, decide, credit_event_id(a.player_id, source), tx)


def claw_back(svc: EconomyService, a: Adjustment, tx: Transaction | None = None) -> RecordedEvent:
    """Take ``a`` back from an opened wallet. Raises ``WalletNotFound``, ``InvalidAmount``,
    ``BeyondBalance``, ``AlreadyCredited`` (this id was clawed back); nothing is written then."""
    source = f"claw_back:{a.adjustment_id}"
    debit = wallet.Debit(source, a.reason, a.coins, a.dust, a.free_packs)
    event_id = uuid.uuid5(uuid.NAMESPACE_URL, f"arcana|claw_back|{a.player_id}|{source}")
    return _adjust(
        svc, a, CLAW_BACK, lambda w: wallet.decide_debit(w, debit, player_id=a.player_id), event_id, tx
    )


def _adjust(
    svc: EconomyService,
    a: Adjustment,
    action: str,
    decide: Decide,
    event_id: uuid.UUID,
    tx: Transaction | None,
) -> RecordedEvent:
    def work(uow: UnitOfWork) -> RecordedEvent:
        current, version = svc._wallet(uow, a.player_id)
        now = clock.now()
        events = decide(current)
        stream = wallet_stream(a.player_id)
        try:
            (recorded,) = uow.append(stream, version, events, event_ids=[event_id], occurred_at=now)
        except DuplicateEventError:
            raise AlreadyCredited(f"{action} {a.adjustment_id} was made already") from None
        d = recorded.data
        details = {
            "source": d["source"],
            **{
                k: d[k]
                for k in ("coins", "dust", "free_packs", "coins_after", "dust_after", "free_packs_after")
            },
        }
        entry = OperatorActed(action, a.operator, a.reason, a.player_id, stream, details)
        uow.append(AUDIT_STREAM, Expect.ANY, [entry], occurred_at=now)
        return recorded

    return svc._execute(work, tx)
