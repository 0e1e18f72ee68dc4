"""The match request of a pair: its ids and the published ``MatchRequested``.

The request id is a UUID5 of the two ticket ids, so pairing the same two tickets twice (a retried
pass, a second worker) names the same request. The match id is the function of the request id the
match service uses too (``libs.contracts.match_id_for``).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

from libs.contracts import MatchRequested, match_id_for

from .ticket import Event, Ticket, paired

MATCH_REQUESTED = MatchRequested.TYPE
_REQUEST_NAMESPACE = uuid.UUID("0b6a2a55-9f7e-4c21-8d0e-6a5f3b1c9e47")


def request_stream(request_id: str) -> str:
    return f"request-{request_id}"


def request_id_for(ticket_a: str, ticket_b: str) -> str:
    return str(uuid.uuid5(_REQUEST_NAMESPACE, ":".join(sorted((ticket_a, ticket_b)))))


def request_match(a: Ticket, b: Ticket, now: datetime) -> tuple[str, dict[str, Sequence[Event]]]:
    """The events of pairing ``a`` with ``b``, by stream: TicketPaired on each ticket and
    MatchRequested on ``request-<id>``. Returns (request id, events by stream). Raises
    ``TicketNotWaiting`` or ValueError (same player, different modes) from ``paired``."""
    request_id = request_id_for(a.ticket_id, b.ticket_id)
    match_id = match_id_for(request_id)
    requested = MatchRequested(
        request_id=request_id,
        mode=a.mode,
        # ids only: match plays each player's active deck as economy published it, and the
        # topic carries no deck list (docs/rules.md, "Fair play"; issue 17, finding 5)
        players=[{"id": a.player_id}, {"id": b.player_id}],
        tickets=[a.ticket_id, b.ticket_id],
        match_id=match_id,
    )
    return request_id, {
        f"ticket-{a.ticket_id}": [paired(a, b, request_id, match_id, now)],
        f"ticket-{b.ticket_id}": [paired(b, a, request_id, match_id, now)],
        request_stream(request_id): [requested],
    }
