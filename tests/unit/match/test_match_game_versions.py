"""Each game versions its own events (issue 30): Arcana and the arena share eight type names with
different fields (``CardDrawn``...), and a new version of one game's type is no new version of the
other's. An event's game is its stream's (its ``MatchCreated.game``): a game's events are stored in
its own versions and read through its own upcasters, old streams as new ones, never rewritten."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from libs.eventstore import RecordedEvent, Upcasters
from libs.games import END_EVENT, registry
from libs.games.arcana import facts as arcana_facts
from libs.games.arena import facts as arena_facts
from services.match import upcasting
from services.match.upcasting import StreamUpcasters, schema_version, upcast, upcast_event

from .test_match_v1_streams import recorded

SHARED = sorted({e.TYPE for e in arcana_facts.FACTS} & {e.TYPE for e in arena_facts.FACTS} - {END_EVENT})


def test_arcana_and_the_arena_share_type_names() -> None:
    assert {"CardDrawn", "CardPlayed", "MatchStarted", "TurnStarted"} <= set(SHARED), SHARED


def test_a_new_event_is_stored_in_its_own_games_version() -> None:
    for game in registry.games():
        declared: dict[str, int] = {}
        for e in (*game.events, *game.public_events):
            declared[e.TYPE] = max(declared.get(e.TYPE, 1), e.VERSION)
        for kind, version in declared.items():
            if kind != END_EVENT:
                assert schema_version(game.name, kind) == version, (game.name, kind)
    assert (
        schema_version("arena", "PlayerDisconnected") == schema_version("arcana", "PlayerDisconnected") == 2
    )


def test_a_new_version_of_one_games_type_leaves_the_others_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    before = schema_version("arcana", "CardDrawn")
    monkeypatch.setattr(arena_facts.CardDrawn, "VERSION", arena_facts.CardDrawn.VERSION + 1)
    assert schema_version("arena", "CardDrawn") == arena_facts.CardDrawn.VERSION
    assert schema_version("arcana", "CardDrawn") == before


def _drawn_v3(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "drawn_in_v3": True}


@pytest.fixture
def arcana_drawn_v3(monkeypatch: pytest.MonkeyPatch) -> None:
    """Arcana's upcasters grown a version 3 of its ``CardDrawn`` (the arena's keeps version 2)."""
    own = Upcasters()
    for kind, version in upcasting.game_versions("arcana").items():
        if version >= upcasting.RENAMED_IN_V2:
            own.register(kind, 1)(upcasting.player_named_player_id)
    own.register("CardDrawn", 2)(_drawn_v3)
    real = upcasting.game_upcasters
    monkeypatch.setattr(upcasting, "game_upcasters", lambda game: own if game == "arcana" else real(game))


@pytest.mark.usefixtures("arcana_drawn_v3")
def test_an_upcaster_of_one_games_type_applies_to_that_games_streams_only() -> None:
    arcana = [e for e in upcast(recorded("arcana")) if e.type == "CardDrawn"]
    arena = [e for e in upcast(recorded("arena")) if e.type == "CardDrawn"]
    assert arcana and all(e.schema_version == 3 and e.data["drawn_in_v3"] for e in arcana)
    assert arena and all(e.schema_version == 2 and "drawn_in_v3" not in e.data for e in arena)
    assert all("player_id" in e.data for e in arena)  # its own version 1 -> 2 still applies


def test_an_old_stream_is_upcast_by_the_game_its_match_created_names() -> None:
    stored = recorded("arena")
    assert stored[0].type == "MatchCreated" and stored[0].data["game"] == "arena"
    assert upcast(stored) == upcast(stored, "arena")
    tail = stored[5:]  # read after a snapshot: no MatchCreated among them
    assert upcast(tail, "arena") == upcast(stored)[5:]
    with pytest.raises(ValueError, match="game is unknown"):
        upcast(tail)


@pytest.mark.usefixtures("arcana_drawn_v3")
def test_readers_one_event_at_a_time_learn_each_streams_game_from_its_match_created() -> None:
    reader = StreamUpcasters()
    arena, arcana = recorded("arena"), recorded("arcana")
    seen = [reader.upcast(e) for pair in zip(arena, arcana, strict=False) for e in pair]
    drawn = {(e.stream, e.schema_version) for e in seen if e.type == "CardDrawn"}
    assert drawn == {("match-m-arena", 2), ("match-m-arcana", 3)}
    later = StreamUpcasters()  # an export from a later time: the stream's MatchCreated not among it
    [first_drawn] = [e for e in arcana if e.type == "CardDrawn"][:1]
    assert later.upcast(first_drawn) is first_drawn  # left as stored: its schema_version says so
    disconnected = _event("match-m-x", "PlayerDisconnected", {"player": "a", "since": "x"})
    assert later.upcast(disconnected).data == {"player_id": "a", "since": "x"}  # the service's own


def test_upcast_event_reads_the_services_own_events_alike_in_every_game() -> None:
    disconnected = _event("match-m-x", "PlayerDisconnected", {"player": "a", "since": "x"})
    for game in registry.names():
        assert upcast_event(disconnected, game).data == {"player_id": "a", "since": "x"}


def _event(stream: str, kind: str, data: dict[str, Any]) -> RecordedEvent:
    template = recorded("arcana")[0]
    return dataclasses.replace(template, stream=stream, type=kind, schema_version=1, data=data)
