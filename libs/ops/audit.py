"""``arcana audit``: the operators' actions, read from every service's ``audit`` stream
(``libs.contracts.audit``), merged in time order, through the analysts' views like ``arcana export``.

Each entry: when, the service that acted, the operator, the action, the player, the stream it
changed, the reason and the details. As text (one line each) or JSON Lines (``--json``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg

from libs.analytics.export import ExportFilter, events, through_analysts_views
from libs.contracts.audit import AUDIT_STREAM, OperatorActed


@dataclass(frozen=True)
class AuditQuery:
    schemas: dict[str, str]  # service -> schema
    since: datetime | None = None
    operator: str | None = None
    player_id: str | None = None


def entries(conn: psycopg.Connection[Any], query: AuditQuery) -> Iterator[dict[str, Any]]:
    """The ``OperatorActed`` entries of every service's ``audit`` stream that ``query`` selects, oldest
    first (``conn`` in a transaction)."""
    where = ExportFilter(
        services=tuple(query.schemas),
        schemas=query.schemas,
        since=query.since,
        types=frozenset({OperatorActed.TYPE}),
        stream=AUDIT_STREAM,
    )
    for event in events(conn, through_analysts_views(conn, where)):
        data = event["data"]
        if query.operator and data.get("operator") != query.operator:
            continue
        if query.player_id and data.get("player_id") != query.player_id:
            continue
        yield {"occurred_at": event["occurred_at"], "service": event["service"], **data}


def line(entry: dict[str, Any]) -> str:
    """One entry as a line of text."""
    details = json.dumps(entry.get("details") or {}, sort_keys=True, separators=(",", ":"))
    return (
        f"{entry['occurred_at']}  {entry['service']:<8} {entry['operator']:<12} {entry['action']:<16} "
        f"{entry['player_id']}  {entry['subject']}  reason={json.dumps(entry['reason'])}  {details}"
    )
