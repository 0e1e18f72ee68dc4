"""Matchmaking's stored events of older shapes, read as the current ones (never rewritten).

- ``TicketOpened`` version 1 carried the ticket's deck list (``deck``); version 2 names the deck
  (``deck_id``, ``deck_version``) and nothing else: a topic must carry no deck list before the match
  that plays it has ended. A version 1 event loses its list on read (it stays in the store only); its
  deck is unknown (``deck_id`` null, ``deck_version`` 0).
- ``TicketPaired`` and ``TicketMatched`` version 2 name the ticket's ``player_id``; version 1 left
  it to the ticket's ``TicketOpened``. Read alone, a version 1 event gets null; the relay, which can
  read the stream, gives it the player (``publication.py``).

Every reader of matchmaking's store (the service, ``arcana rebuild``, ``arcana export``, the relay)
reads through these.
"""

from __future__ import annotations

from typing import Any

from libs.eventstore import Upcasters
from services.matchmaking.events import TicketMatched, TicketOpened, TicketPaired

UPCASTERS = Upcasters()


@UPCASTERS.register(TicketOpened.TYPE, 1)
def _deck_named_not_listed(data: dict[str, Any]) -> dict[str, Any]:
    named = {k: v for k, v in data.items() if k != "deck"}
    return {**named, "deck_id": None, "deck_version": 0}


def _player_left_to_the_ticket(data: dict[str, Any]) -> dict[str, Any]:
    return {"player_id": None, **data}


for _kind in (TicketPaired, TicketMatched):
    UPCASTERS.register(_kind.TYPE, 1)(_player_left_to_the_ticket)
