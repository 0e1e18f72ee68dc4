"""Each game's events are stored in its own versions (issue 30), on real PostgreSQL: with the
arena's ``CardDrawn`` at a new version, an arena match stores its draws in it and an Arcana match,
whose ``CardDrawn`` has other fields, keeps storing its own; both still load, serve and replay."""

from __future__ import annotations

from typing import Any

import pytest

from libs.eventstore import EventStore
from libs.games.arcana import facts as arcana_facts
from libs.games.arena import facts as arena_facts
from services.match.service import MatchService


def _stored_versions(svc: MatchService, match_id: str, kind: str) -> set[int]:
    as_stored = EventStore(svc.matches.pool, svc.matches.schema)  # no upcasters: the rows as written
    return {e.schema_version for e in as_stored.read(f"match-{match_id}") if e.type == kind}


def test_a_new_version_of_the_arenas_card_drawn_is_not_arcanas(
    make_player: Any, svc: MatchService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(arena_facts.CardDrawn, "VERSION", arena_facts.CardDrawn.VERSION + 1)
    alice, bob = make_player(), make_player()
    arena = alice.post("/v1/practice", {"game": "arena", "bots": 1}).get_json()["match_id"]
    arcana = bob.post("/v1/practice", {}).get_json()["match_id"]
    assert _stored_versions(svc, arena, "CardDrawn") == {arena_facts.CardDrawn.VERSION}
    assert _stored_versions(svc, arcana, "CardDrawn") == {arcana_facts.CardDrawn.VERSION}
    assert arena_facts.CardDrawn.VERSION != arcana_facts.CardDrawn.VERSION
    for player, match_id in ((alice, arena), (bob, arcana)):
        assert player.view(match_id)["match_id"] == match_id
        assert svc.matches.verify_replay(match_id) == []
