"""Operators' HTTP on wallets (operator token; docs/operations.md, "Operator actions"):

- ``POST /v1/admin/wallets/<player_id>/refunds`` ``{coins?, dust?, free_packs?, reason, refund_id?}``
  → 201 the amounts and the balances after; 404 ``wallet_not_found``; 409 ``already_credited``
  (this ``refund_id`` was paid); 422 ``invalid_amount``, ``grant_above_ceiling``,
  ``validation_error`` (no reason).
- ``POST /v1/admin/wallets/<player_id>/claw-backs`` ``{coins?, dust?, free_packs?, reason,
  claw_back_id?}`` → 201; 404 ``wallet_not_found``; 409 ``beyond_balance`` (more than the wallet
  holds: ``details.balance``), ``already_credited`` (this id was taken back); 422 ``invalid_amount``.

Each is a compensating ledger event (never an edit) recorded with the operator and the reason in
economy's ``audit`` stream. Refusals write nothing.
"""

from __future__ import annotations

import uuid
from typing import Any

import marshmallow as ma
from marshmallow import validate as v

from libs.kit import ErrorTable
from libs.kit.web import current_service
from libs.web import (
    Blueprint,
    ErrorSchema,
    StrictInteger,
    StrictSchema,
    current_operator,
    request_transaction,
    require_operator,
)
from libs.web.audit import reason_field
from libs.web.contract import FullMatch
from services.economy import admin
from services.economy.api import _problem
from services.economy.ceilings import GRANT_CEILING
from services.economy.domain import BeyondBalance
from services.economy.service import EconomyService

ERRORS = ErrorTable({BeyondBalance: _problem(409, BeyondBalance)})

blp = Blueprint("economy-admin", __name__, description="Operators: refunds and claw-backs.")

_ID = {"description": "the support ticket or any id: the same id is applied once"}


class _AdjustmentIn(StrictSchema):
    JSON_SCHEMA = {  # the domain refuses an adjustment of nothing (422 `invalid_amount`)
        "anyOf": [
            {"required": [name], "properties": {name: {"minimum": 1}}}
            for name in ("coins", "dust", "free_packs")
        ]
    }

    coins = StrictInteger(load_default=0, validate=v.Range(min=0, max=GRANT_CEILING.coins))
    dust = StrictInteger(load_default=0, validate=v.Range(min=0, max=GRANT_CEILING.dust))
    free_packs = StrictInteger(load_default=0, validate=v.Range(min=0, max=GRANT_CEILING.free_packs))
    reason = reason_field()


class RefundIn(_AdjustmentIn):
    refund_id = ma.fields.String(validate=FullMatch(r"[A-Za-z0-9_.:-]{1,100}"), metadata=_ID)


class ClawBackIn(_AdjustmentIn):
    claw_back_id = ma.fields.String(validate=FullMatch(r"[A-Za-z0-9_.:-]{1,100}"), metadata=_ID)


class AdjustmentOut(ma.Schema):
    source = ma.fields.String(required=True, metadata={"description": "`refund:<id>` or `claw_back:<id>`"})
    coins = ma.fields.Integer(required=True, metadata={"description": "coins paid or taken"})
    dust = ma.fields.Integer(required=True)
    free_packs = ma.fields.Integer(required=True)
    coins_after = ma.fields.Integer(required=True)
    dust_after = ma.fields.Integer(required=True)
    free_packs_after = ma.fields.Integer(required=True)


def _service() -> EconomyService:
    svc: EconomyService = current_service()
    return svc


def _adjustment(args: dict[str, Any], player_id: uuid.UUID, id_field: str) -> admin.Adjustment:
    return admin.Adjustment(
        str(player_id),
        args.get(id_field) or str(uuid.uuid4()),
        current_operator(),
        args["reason"],
        args["coins"],
        args["dust"],
        args["free_packs"],
    )


def _out(recorded: Any) -> dict[str, Any]:
    return {k: recorded.data[k] for k in AdjustmentOut().fields}


@blp.route("/v1/admin/wallets/<uuid:player_id>/refunds", methods=["POST"])
@require_operator
@blp.arguments(RefundIn)
@blp.response(201, AdjustmentOut)
@blp.alt_response(404, schema=ErrorSchema, description="wallet_not_found")
@blp.alt_response(409, schema=ErrorSchema, description="already_credited")
def refund(args: dict[str, Any], player_id: uuid.UUID) -> Any:
    """Operators: pay a player back coins, dust or free packs, with a reason (a compensating credit)."""
    adjustment = _adjustment(args, player_id, "refund_id")
    return _out(admin.refund(_service(), adjustment, request_transaction))


@blp.route("/v1/admin/wallets/<uuid:player_id>/claw-backs", methods=["POST"])
@require_operator
@blp.arguments(ClawBackIn)
@blp.response(201, AdjustmentOut)
@blp.alt_response(404, schema=ErrorSchema, description="wallet_not_found")
@blp.alt_response(409, schema=ErrorSchema, description="beyond_balance, already_credited")
def claw_back(args: dict[str, Any], player_id: uuid.UUID) -> Any:
    """Operators: take back coins, dust or free packs paid in error, with a reason (a compensating
    debit; never more than the wallet holds)."""
    adjustment = _adjustment(args, player_id, "claw_back_id")
    return _out(admin.claw_back(_service(), adjustment, request_transaction))
