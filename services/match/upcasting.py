"""Match streams' stored events of older shapes, read as the current ones (never rewritten).

Version 1 of every event of a match's stream that names a player (the games' own facts,
``CardPlayed``, ``TurnStarted``..., and ``PlayerDisconnected``/``PlayerReconnected``) named it
``player``; version 2 names it ``player_id``, as every other stream's events do (docs/events.md,
"Naming the player"). A version 1 event gets the new name on read. Every reader of match's store
(the service's fold and replay check, ``arcana rebuild``, ``arcana export``, the relay's routing,
``arcana replay`` from any source) reads through these.

The envelope keys an upcast by type and version only, so a type several games share
(``AttackResolved``, ``CardPlayed``...) has one version in all of them: every game declaring it
declares version 2 (a game whose event had no ``player`` changed nothing but the number).
"""

from __future__ import annotations

from collections.abc import Iterable

from libs.contracts.match import PlayerDisconnected, PlayerReconnected, player_named_player_id
from libs.eventstore import RecordedEvent, Upcasters
from libs.games import END_EVENT, registry

RENAMED_IN_V2 = 2  # the version that renamed `player` to `player_id`


def schema_versions() -> dict[str, int]:
    """The schema version match stores of each event type it writes (absent: 1): the service's own
    and every hosted game's (the same type shares one version: see the module's note)."""
    found: dict[str, int] = {e.TYPE: e.VERSION for e in (PlayerDisconnected, PlayerReconnected)}
    for game in registry.games():
        for event in (*game.events, *game.public_events):
            if event.TYPE != END_EVENT:
                found[event.TYPE] = max(found.get(event.TYPE, 1), event.VERSION)
    return found


def upcasters(types: Iterable[str]) -> Upcasters:
    """Version 1 -> 2 (``player`` -> ``player_id``) for each of ``types``."""
    found = Upcasters()
    for kind in types:
        found.register(kind, 1)(player_named_player_id)
    return found


UPCASTERS = upcasters(k for k, v in schema_versions().items() if v >= RENAMED_IN_V2)
_versions: tuple[tuple[str, ...], dict[str, int]] = ((), {})


def schema_version(kind: str) -> int:
    """The schema version of a new event of type ``kind`` (``schema_versions``, computed again once
    another game is hosted)."""
    global _versions
    hosted = tuple(registry.names())
    if _versions[0] != hosted:
        _versions = (hosted, schema_versions())
    return _versions[1].get(kind, 1)


def upcast(events: Iterable[RecordedEvent]) -> list[RecordedEvent]:
    """``events`` (from a topic or an export, which hold them as stored) in their current shapes."""
    return [UPCASTERS.upcast(e) for e in events]
