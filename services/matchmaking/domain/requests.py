"""The match request of a table (two tickets, or 2 to 4 in the arena): its ids and the published
``MatchRequested``.

The request id is a UUID5 of the sorted ticket ids, so seating the same tickets twice (a retried
pass, a second worker) names the same request. A ticket returned to waiting (``TicketReturned``) is
named with its version too (``ticket-id@version``), so seating it again names a new request, whose
match id the refused one did not take. The match id is the function of the request id the
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


def request_id_for(*ticket_ids: str) -> str:
    return str(uuid.uuid5(_REQUEST_NAMESPACE, ":".join(sorted(ticket_ids))))


def request_key(t: Ticket) -> str:
    """What the request id names a ticket by: its id, and its version once it was returned (a ticket
    is seated from its first version otherwise, and every request before returns named ids only)."""
    return t.ticket_id if t.version == 1 else f"{t.ticket_id}@{t.version}"


def request_match(a: Ticket, b: Ticket, now: datetime) -> tuple[str, dict[str, Sequence[Event]]]:
    """``request_table`` of the pair ``a``, ``b``."""
    return request_table([a, b], now)


def request_table(table: Sequence[Ticket], now: datetime) -> tuple[str, dict[str, Sequence[Event]]]:
    """The events of seating ``table`` (in seat order), by stream: TicketPaired on each ticket and
    MatchRequested on ``request-<id>``. Returns (request id, events by stream). Raises
    ``TicketNotWaiting`` or ValueError (a player twice, different games or modes, a size a ticket
    does not accept) from ``paired``."""
    request_id = request_id_for(*(request_key(t) for t in table))
    match_id = match_id_for(request_id)
    requested = MatchRequested(
        request_id=request_id,
        mode=table[0].mode,
        # ids only: match plays each player's active deck as economy published it, and the
        # topic carries no deck list (docs/rules.md, "Fair play"; issue 17, finding 5)
        players=[{"id": t.player_id} for t in table],
        tickets=[t.ticket_id for t in table],
        match_id=match_id,
        game=table[0].game,
    )
    by_stream: dict[str, Sequence[Event]] = {
        f"ticket-{t.ticket_id}": [paired(t, [o for o in table if o is not t], request_id, match_id, now)]
        for t in table
    }
    by_stream[request_stream(request_id)] = [requested]
    return request_id, by_stream
