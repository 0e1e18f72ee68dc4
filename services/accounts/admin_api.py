"""Operators' HTTP on accounts (operator token; docs/operations.md, "Operator actions"):

- ``POST /v1/admin/accounts/<player_id>/suspension`` ``{reason}`` → 204: suspend (every token
  refused, no log-in, waiting tickets cancelled, running matches forfeited); 404
  ``account_not_found``; 409 ``already_suspended``; 422 ``validation_error`` (no reason).
- ``DELETE /v1/admin/accounts/<player_id>/suspension`` ``{reason}`` → 204: restore; 404
  ``account_not_found``; 409 ``not_suspended``.

A suspended player's log-in (with the right password) answers 403 ``account_suspended``. Each
action is recorded with the operator's name and the reason in accounts' ``audit`` stream.
"""

from __future__ import annotations

import uuid
from typing import Any

from libs.kit import ErrorTable, Problem
from libs.kit.web import current_service
from libs.web import Blueprint, ErrorSchema, current_operator, request_transaction, require_operator
from libs.web.audit import ReasonIn
from services.accounts import admin, suspended
from services.accounts.service import AccountsService

ERRORS = ErrorTable(
    {
        suspended.AlreadySuspended: Problem(409, "already_suspended", "The account is suspended already."),
        suspended.NotSuspended: Problem(409, "not_suspended", "The account is not suspended."),
        suspended.AccountIsSuspended: Problem(
            403, "account_suspended", "This account is suspended; contact support."
        ),
    }
)

blp = Blueprint("accounts-admin", __name__, description="Operators: suspend and restore accounts.")


def _service() -> AccountsService:
    service: AccountsService = current_service()
    return service


@blp.route("/v1/admin/accounts/<uuid:player_id>/suspension", methods=["POST"])
@require_operator
@blp.arguments(ReasonIn)
@blp.response(204)
@blp.alt_response(404, schema=ErrorSchema, description="account_not_found")
@blp.alt_response(409, schema=ErrorSchema, description="already_suspended")
def suspend(args: dict[str, Any], player_id: uuid.UUID) -> None:
    """Operators: suspend an account, with a reason (recorded in the audit stream)."""
    admin.suspend(_service(), player_id, current_operator(), args["reason"], request_transaction)


@blp.route("/v1/admin/accounts/<uuid:player_id>/suspension", methods=["DELETE"])
@require_operator
@blp.arguments(ReasonIn)
@blp.response(204)
@blp.alt_response(404, schema=ErrorSchema, description="account_not_found")
@blp.alt_response(409, schema=ErrorSchema, description="not_suspended")
def restore(args: dict[str, Any], player_id: uuid.UUID) -> None:
    """Operators: lift an account's suspension, with a reason (recorded in the audit stream)."""
    admin.restore(_service(), player_id, current_operator(), args["reason"], request_transaction)
