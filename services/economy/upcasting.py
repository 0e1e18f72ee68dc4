"""Economy's stored events of older shapes, read as the current ones (never rewritten).

Version 1 of the wallet and deck events named the player only in their stream (``wallet-<id>``,
``decks-<id>``); version 2 carries ``player_id`` in the data, and a credit carries ``earned_at``.
A version 1 event gets them on read: the player from its stream's name, ``earned_at`` from its
``occurred_at`` (the recorded time is all a version 1 credit knows of when it was earned). Every
reader of economy's store (the service, ``arcana rebuild``, ``arcana export``) reads through these.
"""

from __future__ import annotations

from typing import Any

from libs.eventstore import EventTypes, RecordedEvent, Upcasters
from services.economy.events import (
    EVENT_TYPES,
    CardCrafted,
    CardDisenchanted,
    DeckActivated,
    DeckDeleted,
    DeckSaved,
    PackOpened,
    WalletCredited,
)

UPCASTERS = Upcasters()
STORED = EventTypes(EVENT_TYPES.values())  # economy's streams' events as typed events (``event_from``)

NAMED_BY_STREAM = (PackOpened, CardCrafted, CardDisenchanted, DeckSaved, DeckDeleted, DeckActivated)


def player_of_stream(stream: str) -> str:
    """``wallet-<player>`` or ``decks-<player>`` -> ``<player>``."""
    kind, sep, player = stream.partition("-")
    if kind not in ("wallet", "decks") or not sep or not player:
        raise ValueError(f"not a stream of one player: {stream!r}")
    return player


def _with_player(data: dict[str, Any], event: RecordedEvent) -> dict[str, Any]:
    return {"player_id": player_of_stream(event.stream), **data}


def _credit_v1_to_v2(data: dict[str, Any], event: RecordedEvent) -> dict[str, Any]:
    return {**_with_player(data, event), "earned_at": event.occurred_at.isoformat()}


for _kind in NAMED_BY_STREAM:
    UPCASTERS.register_enveloped(_kind.TYPE, 1)(_with_player)
UPCASTERS.register_enveloped(WalletCredited.TYPE, 1)(_credit_v1_to_v2)
