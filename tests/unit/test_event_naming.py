"""One name for a player's id in event data (issue 20, point 5; docs/events.md, "Naming the player"):
``player_id`` in every event that names a player, of any stream: a player's own (accounts, economy,
progression, ratings) and a match's (the game engines' facts, the presence events beside them).
A role keeps its own name (``winner``, ``first``, ``target``...); no event's data has a field
called ``player`` any more: a match stream's events of schema version 1 had one, and read as
version 2 through the match service's upcasters (``services/match/upcasting.py``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

import pytest

from libs.games import registry
from libs.kit.registry import discover

PLAYER_STREAMS = ("accounts", "economy", "progression", "ratings")


def _fields(event: type) -> set[str]:
    return {f.name for f in dataclasses.fields(event)}  # type: ignore[arg-type]


def _catalog_events() -> list[tuple[str, str, type]]:
    return [(svc.name, c.topic, e) for svc in discover() for c in svc.events for e in c.events]


def _game_events() -> list[type]:
    return [e for g in registry.games() for e in (*g.events, *g.public_events)]


def _named_player(events: Iterable[type]) -> list[str]:
    return sorted({e.TYPE for e in events if "player" in _fields(e)})


def test_every_event_of_a_player_s_stream_names_the_player_id_in_its_data() -> None:
    found = [
        (s, e.TYPE) for s, _, e in _catalog_events() if s in PLAYER_STREAMS and "player_id" not in _fields(e)
    ]
    assert found == []


def test_no_event_of_any_stream_has_a_field_called_player() -> None:
    assert _named_player(e for _, _, e in _catalog_events()) == []
    assert _named_player(_game_events()) == []


def test_the_match_stream_s_events_name_their_player_player_id() -> None:
    types = {e.TYPE for _, topic, e in _catalog_events() if topic.startswith("arcana.match.")}
    named = {
        e.TYPE
        for _, topic, e in _catalog_events()
        if topic.startswith("arcana.match.") and "player_id" in _fields(e)
    }
    assert {
        "CardPlayed",
        "TurnStarted",
        "PlayerDisconnected",
        "PlayerReconnected",
        "CardHit",
        "LifeLost",
    } <= named
    assert named < types  # and not every one: MatchStarted names its players' roles (`first`)


@dataclasses.dataclass(frozen=True)
class Planted:
    """An event of a match's stream as version 1 named its player."""

    TYPE = "CardPlayed"
    player: str
    card: str


def test_the_rule_fails_on_a_planted_player_field(monkeypatch: pytest.MonkeyPatch) -> None:
    import tests.unit.test_event_naming as this

    real = this._catalog_events()
    monkeypatch.setattr(this, "_catalog_events", lambda: [*real, ("match", "arcana.match.events", Planted)])
    with pytest.raises(AssertionError):
        test_no_event_of_any_stream_has_a_field_called_player()
    monkeypatch.setattr(this, "_catalog_events", lambda: real)
    monkeypatch.setattr(this, "_game_events", lambda: [Planted])
    with pytest.raises(AssertionError):
        test_no_event_of_any_stream_has_a_field_called_player()
