"""Match streams' stored events of older shapes, read as the current ones (never rewritten).

Version 1 of every event of a match's stream that names a player (the games' own facts,
``CardPlayed``, ``TurnStarted``..., and ``PlayerDisconnected``/``PlayerReconnected``) named it
``player``; version 2 names it ``player_id``, as every other stream's events do (docs/events.md,
"Naming the player"). A version 1 event gets the new name on read. Every reader of match's store
(the service's fold and replay check, ``arcana rebuild``, ``arcana export``, the relay's routing,
``arcana replay`` from any source) reads through these.

A game's events are versioned and upcast per game: Arcana and the arena both have a
``CardDrawn``, with different fields, and each goes its own way (a new version of one is no new
version of the other). An event's game is its stream's, named once by the stream's
``MatchCreated`` (``game``; Arcana before games had names), so a game's events are stored under
their game's own versions (``schema_version``) and read through their game's upcasters
(``upcast``), old streams as new ones. The service's own events (``PlayerDisconnected``...) are
upcast alike in every stream (``SERVICE_UPCASTERS``, what the event store applies on each read).
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from typing import Any

from libs.contracts.match import (
    MatchCreated,
    MatchEnded,
    MatchRequestRejected,
    PlayerDisconnected,
    PlayerReconnected,
    player_named_player_id,
)
from libs.eventstore import RecordedEvent, Upcasters
from libs.games import END_EVENT, registry
from libs.games.registry import DEFAULT_GAME

RENAMED_IN_V2 = 2  # the version that renamed `player` to `player_id`
SERVICE_TYPES = {
    e.TYPE: e.VERSION
    for e in (MatchCreated, MatchRequestRejected, PlayerDisconnected, PlayerReconnected, MatchEnded)
}
_OPENINGS = (MatchCreated.TYPE, MatchRequestRejected.TYPE)


def _renaming_player(types: Iterable[str]) -> Upcasters:
    """Version 1 -> 2 (``player`` -> ``player_id``) for each of ``types``."""
    found = Upcasters()
    for kind in types:
        found.register(kind, 1)(player_named_player_id)
    return found


SERVICE_UPCASTERS = _renaming_player(k for k, v in SERVICE_TYPES.items() if v >= RENAMED_IN_V2)


def game_versions(game: str) -> dict[str, int]:
    """The schema version of each event type ``game`` declares (its stored and public forms: the
    latest of the two); its end (``MatchEnded``) is the service's."""
    found: dict[str, int] = {}
    declared = registry.get(game)
    for event in (*declared.events, *declared.public_events):
        if event.TYPE != END_EVENT:
            found[event.TYPE] = max(found.get(event.TYPE, 1), event.VERSION)
    return found


@functools.cache
def game_upcasters(game: str) -> Upcasters:
    """``game``'s own upcasters: version 1 -> 2 of its types at version 2 or later (the rename);
    a game's later version of a type registers its upcaster here, for its streams only."""
    return _renaming_player(k for k, v in game_versions(game).items() if v >= RENAMED_IN_V2)


def schema_version(game: str, kind: str) -> int:
    """The schema version a new event of type ``kind`` is stored in, in a match of ``game``: the
    service's own types their version, the game's types the game's (absent: 1)."""
    if kind in SERVICE_TYPES:
        return SERVICE_TYPES[kind]
    return game_versions(game).get(kind, 1)


def upcast_event(event: RecordedEvent, game: str) -> RecordedEvent:
    """``event`` of a stream of ``game`` in its current shape (a service event as stored by the event
    store's reads, which applied ``SERVICE_UPCASTERS``, is left as it is)."""
    if event.type in SERVICE_TYPES:
        return SERVICE_UPCASTERS.upcast(event)
    return game_upcasters(game).upcast(event)


def game_of(events: Iterable[RecordedEvent]) -> str | None:
    """The game that ``events`` (of one stream) name in their opening event, if they hold it."""
    for event in events:
        if event.type in _OPENINGS:
            return opening_game(event.data)
    return None


def opening_game(data: Mapping[str, Any]) -> str:
    """The game a stream's ``MatchCreated`` (or ``MatchRequestRejected``) names: Arcana before games
    had names."""
    return str(data.get("game") or DEFAULT_GAME)


def upcast(events: Iterable[RecordedEvent], game: str | None = None) -> list[RecordedEvent]:
    """``events`` of one match stream (from the store, a topic or an export, which hold them as
    stored) in their current shapes: the game's events by ``game``, or, when not given, by the game
    the stream's ``MatchCreated`` among ``events`` names. Raises ValueError when neither says."""
    events = list(events)
    game = game or game_of(events)
    if game is None:
        if all(e.type in SERVICE_TYPES for e in events):
            return [SERVICE_UPCASTERS.upcast(e) for e in events]
        raise ValueError("the stream's game is unknown: read it from its MatchCreated")
    return [upcast_event(e, game) for e in events]


class StreamUpcasters(Upcasters):
    """Match's upcasters for readers of its events one at a time, across streams (``arcana export``,
    ``arcana rebuild``'s store: ``ServiceDef.upcasters``): each game event through its stream's
    game's upcasters, the game learnt from the stream's ``MatchCreated`` as it passes (in position
    order it comes first), for the last ``size`` streams. A game event of a stream whose
    ``MatchCreated`` this reader has not seen (an export from a later time) is left as stored: its
    ``schema_version`` says which shape it has. Thread-safe."""

    def __init__(self, size: int = 20_000) -> None:
        super().__init__()
        self.size = size
        self._games: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()

    def upcast(self, event: RecordedEvent) -> RecordedEvent:
        if event.type in _OPENINGS:
            with self._lock:
                self._games[event.stream] = opening_game(event.data)
                self._games.move_to_end(event.stream)
                while len(self._games) > self.size:
                    self._games.popitem(last=False)
        if event.type in SERVICE_TYPES:
            return SERVICE_UPCASTERS.upcast(event)
        with self._lock:
            game = self._games.get(event.stream)
        return event if game is None else game_upcasters(game).upcast(event)
