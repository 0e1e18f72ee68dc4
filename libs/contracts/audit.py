"""The audit log: what an operator did, who, and why (docs/operations.md, "Operator actions").

Each service that carries out an operator action appends one ``OperatorActed`` to the stream
``audit`` of its own event store, in the transaction of the action itself: the action and its audit
entry are written together or not at all. ``arcana audit`` reads the ``audit`` streams of every
service, merged in time order; ``arcana export`` exports them like any event.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from libs.contracts.base import IntegrationEvent, integration_event

AUDIT_STREAM = "audit"

# What an operator may do, by the service that does it.
SUSPEND_ACCOUNT, RESTORE_ACCOUNT = "suspend_account", "restore_account"  # accounts
REFUND, CLAW_BACK = "refund", "claw_back"  # economy
VOID_RATING = "void_rating"  # ratings


@integration_event("OperatorActed", version=1)
@dataclass(frozen=True)
class OperatorActed(IntegrationEvent):
    """An operator's action, recorded in the `audit` stream of the service that carried it out, in
    the same transaction as the events it caused."""

    action: str = field(
        metadata={
            "doc": "`suspend_account`, `restore_account` (accounts), `refund`, `claw_back` (economy), "
            "`void_rating` (ratings)"
        }
    )
    operator: str = field(
        metadata={"doc": "who: the name of the operator token used (`operator`: the shared token)"}
    )
    reason: str = field(metadata={"doc": "why, as the operator wrote it (3-500 characters; never who)"})
    player_id: str = field(metadata={"doc": "the player acted upon"})
    subject: str = field(
        metadata={"doc": "the stream it changed: `player-<id>`, `wallet-<id>`, or the match whose rating"}
    )
    details: dict[str, Any] = field(
        default_factory=dict,
        metadata={"doc": "what it changed (amounts, the balance after, the ratings moved back)"},
    )
