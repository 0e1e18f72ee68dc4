"""Issue 34, point 6: what an erased player reads as, and older events read without the username
(the stored events before version 2 carried it; every reader upcasts them)."""

from __future__ import annotations

import uuid

import pytest

from libs.contracts import PlayerLoggedIn, PlayerRegistered
from libs.eventstore import RecordedEvent
from services.accounts import domain
from services.accounts.upcasting import UPCASTERS


def test_the_pseudonym_is_stable_per_player_and_tells_nothing_of_the_person() -> None:
    player, other = uuid.uuid4(), uuid.uuid4()
    shown = domain.pseudonym(player)
    assert shown == domain.pseudonym(player) != domain.pseudonym(other)
    assert shown.startswith("deleted-") and len(shown) == len("deleted-") + 12
    assert str(player).replace("-", "")[:12] not in shown  # not the default name's digits either


@pytest.mark.parametrize("contract", [PlayerRegistered, PlayerLoggedIn])
def test_a_version_1_event_decodes_without_its_username(contract: type) -> None:
    player = str(uuid.uuid4())
    decoded = contract.decode_data({"player_id": player, "username": "ada"}, 1)  # type: ignore[attr-defined]
    assert decoded.data() == {"player_id": player}


@pytest.mark.parametrize("event_type", [PlayerRegistered.TYPE, PlayerLoggedIn.TYPE])
def test_the_store_reads_a_version_1_event_without_its_username(event_type: str) -> None:
    player = str(uuid.uuid4())
    stored = RecordedEvent.from_dict(
        {
            "position": 1,
            "event_id": str(uuid.uuid4()),
            "stream": f"player-{player}",
            "version": 1,
            "type": event_type,
            "schema_version": 1,
            "occurred_at": "2026-01-01T00:00:00+00:00",
            "data": {"player_id": player, "username": "ada"},
        }
    )
    current = UPCASTERS.upcast(stored)
    assert (current.schema_version, current.data) == (2, {"player_id": player})
