"""What matchmaking's stored events become on ``arcana.matchmaking.events`` (``SERVICE.publication``;
the outbox relay follows it): each event in its current shape, never as an older one was stored.

A ``TicketOpened`` stored in version 1 holds the ticket's deck list; published as stored, it would
put that list on the topic while the match runs (issue 34, finding 2). It is published upcast
(``upcasting.py``: the list dropped), and so is every event the relay sends again from the start
(a new broker, a lost topic). A version 1 ``TicketPaired`` or ``TicketMatched`` is published with
its ticket's player, read from the stream's ``TicketOpened``.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Sequence

from libs.eventstore import EventStore, RecordedEvent
from libs.kit import Publication
from services.matchmaking.events import TOPIC, TicketMatched, TicketPaired
from services.matchmaking.upcasting import UPCASTERS

NAMING_THE_PLAYER = frozenset({TicketPaired.TYPE, TicketMatched.TYPE})


class TicketPlayers:
    """The player of each ticket stream (its first event says), remembered for the last ``size``
    streams. Thread-safe."""

    def __init__(self, size: int = 20_000) -> None:
        self.size = size
        self._players: OrderedDict[str, str | None] = OrderedDict()
        self._lock = threading.Lock()

    def player_of(self, stream: str, store: EventStore) -> str | None:
        with self._lock:
            if stream in self._players:
                return self._players[stream]
        first = store.read(stream, 1, 1)
        player = first[0].data.get("player_id") if first else None
        with self._lock:
            self._players[stream] = player
            while len(self._players) > self.size:
                self._players.popitem(last=False)
        return player


_PLAYERS = TicketPlayers()


def route(event: RecordedEvent, store: EventStore) -> Sequence[tuple[str, RecordedEvent]]:
    """``event`` in its current shape on the topic (a version 1 ticket event naming its player)."""
    current = UPCASTERS.upcast(event)
    if current.type in NAMING_THE_PLAYER and current.data.get("player_id") is None:
        player = _PLAYERS.player_of(current.stream, store)
        current = dataclasses.replace(current, data={**current.data, "player_id": player})
    return [(TOPIC, current)]


PUBLICATION = Publication(topics=(TOPIC,), route=route)
