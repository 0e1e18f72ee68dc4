"""What the match service's stored events become on the bus (``SERVICE.publication``; the outbox
relay follows it). Issue 12, finding 2: no hidden information on the live topic.

- ``arcana.match.events`` (live; what other services consume): each event as a spectator would see
  it (``domain.live_event``): creation, the public form of each game event, disconnections, the
  end with its stats. No seed, deck list, deck order, drawn card or state hash; ``DeckShuffled``
  is not published there (so versions on it have gaps).
- ``arcana.match.lifecycle`` (what other services consume): the events of ``events.LIFECYCLE``
  (creation, rejection, disconnections, the end) exactly as on the live topic, without the moves.
- ``arcana.match.records`` (for analysts and replay): a match's complete record, every event as
  stored, published once the match has ended, when its ``MatchEnded`` is relayed.

A tournament's bracket (stream ``tournament-<id>``, ``usecases/tournaments.py``) goes to
``arcana.match.lifecycle`` alone, step by step: ``TournamentEntered`` without the entry's cards, and
no ``TournamentLineupChosen`` (a deck chosen for a round shows in ``TournamentFightStarted``, when it
fights).

Every event is routed in its current shape: one stored in an older version (the player named
``player``) is upcast first (``upcasting.py``), on every topic.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Sequence

from libs.eventstore import EventStore, RecordedEvent
from libs.games import END_EVENT
from libs.games.registry import DEFAULT_GAME
from libs.kit import Publication, without
from services.match import domain
from services.match.domain.bracket import ENTERED, LINEUP_CHOSEN
from services.match.events import LIFECYCLE, LIFECYCLE_TOPIC, RECORDS_TOPIC, TOPIC
from services.match.upcasting import upcast, upcast_event

MATCH_ENDED = END_EVENT
LIFECYCLE_TYPES = frozenset(LIFECYCLE.types())


class StreamGames:
    """The game of each match stream the relay publishes (its ``MatchCreated`` says; ``arcana``
    before games had names), remembered for the last ``size`` streams. Thread-safe."""

    def __init__(self, size: int = 20_000) -> None:
        self.size = size
        self._games: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()

    def game_of(self, event: RecordedEvent, store: EventStore) -> str:
        if event.type in (domain.MATCH_CREATED, domain.MATCH_REQUEST_REJECTED):
            return self._remember(event.stream, str(event.data.get("game") or DEFAULT_GAME))
        with self._lock:
            known = self._games.get(event.stream)
        if known is not None:
            return known
        first = store.read(event.stream, 1, 1)
        game = str(first[0].data.get("game") or DEFAULT_GAME) if first else DEFAULT_GAME
        return self._remember(event.stream, game)

    def _remember(self, stream: str, game: str) -> str:
        with self._lock:
            self._games[stream] = game
            self._games.move_to_end(stream)
            while len(self._games) > self.size:
                self._games.popitem(last=False)
        return game


_GAMES = StreamGames()


TOURNAMENT_PREFIX = "tournament-"
HIDDEN_OF_TOURNAMENTS = {LINEUP_CHOSEN: None, ENTERED: frozenset({"cards"})}  # None: never published


def tournament_route(event: RecordedEvent) -> list[tuple[str, RecordedEvent]]:
    """A bracket's event on the lifecycle topic, without what is hidden while it runs."""
    if event.type not in HIDDEN_OF_TOURNAMENTS:
        return [(LIFECYCLE_TOPIC, event)]
    hidden = HIDDEN_OF_TOURNAMENTS[event.type]
    if hidden is None:
        return []
    return [(LIFECYCLE_TOPIC, without(event, hidden, event.schema_version))]


def route(event: RecordedEvent, store: EventStore) -> Sequence[tuple[str, RecordedEvent]]:
    """The public form of ``event`` on the live topic, if any; after a ``MatchEnded``, the whole
    stream as stored (up to that event) on the records topic."""
    if event.stream.startswith(TOURNAMENT_PREFIX):
        return tournament_route(event)
    out: list[tuple[str, RecordedEvent]] = []
    game = _GAMES.game_of(event, store)
    event = upcast_event(event, game)  # one stored in an older version of its game: published as current
    live = domain.live_event(event.type, event.data, game)
    if live is not None:
        public = dataclasses.replace(event, data=live)
        out.append((TOPIC, public))
        if event.type in LIFECYCLE_TYPES:
            out.append((LIFECYCLE_TOPIC, public))
    if event.type == MATCH_ENDED:
        out += [(RECORDS_TOPIC, e) for e in upcast(store.read(event.stream, 1, event.version))]
    return out


PUBLICATION = Publication(topics=(TOPIC, LIFECYCLE_TOPIC, RECORDS_TOPIC), route=route)
