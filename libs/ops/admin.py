"""``arcana admin``: the operator actions, sent to the services' ``/v1/admin/...`` endpoints with
the operator's token (``ARCANA_OPERATOR_TOKEN`` or its ``_FILE``), so the CLI and the HTTP API take
one path: the same checks, the same audit entry (docs/operations.md, "Operator actions").
"""

from __future__ import annotations

from typing import Any

from libs.client import operations as ops
from libs.client.client import ArcanaClient


def amounts(coins: int, dust: int, free_packs: int) -> dict[str, int]:
    return {k: v for k, v in {"coins": coins, "dust": dust, "free_packs": free_packs}.items() if v}


def suspend(client: ArcanaClient, player_id: str, reason: str) -> Any:
    return client.call(ops.ADMIN_SUSPEND, json={"reason": reason}, player_id=player_id)


def restore(client: ArcanaClient, player_id: str, reason: str) -> Any:
    return client.call(ops.ADMIN_RESTORE, json={"reason": reason}, player_id=player_id)


def refund(client: ArcanaClient, player_id: str, reason: str, given: dict[str, Any]) -> Any:
    return client.call(ops.ADMIN_REFUND, json={**given, "reason": reason}, player_id=player_id)


def claw_back(client: ArcanaClient, player_id: str, reason: str, given: dict[str, Any]) -> Any:
    return client.call(ops.ADMIN_CLAW_BACK, json={**given, "reason": reason}, player_id=player_id)


def void_rating(client: ArcanaClient, match_id: str, reason: str) -> Any:
    return client.call(ops.ADMIN_VOID_RATING, json={"match_id": match_id, "reason": reason})
