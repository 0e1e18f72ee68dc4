"""One name for a player's id in event data (issue 20, point 5; docs/events.md, "Naming the player"):

- ``player_id`` in every event of a player's own stream (accounts, economy, progression, ratings),
  so an analyst finds the player in the data, never only in the stream's name;
- ``player`` in the events of a match's stream (the game engines' facts, and the presence events
  beside them): the name those streams were stored with, which the engines fold on every replay
  and the web client reads. Neither name is used for the other's meaning."""

from __future__ import annotations

import dataclasses

from libs.kit.registry import discover

PLAYER_STREAMS = ("accounts", "economy", "progression", "ratings")


def _fields(event: type) -> set[str]:
    return {f.name for f in dataclasses.fields(event)}  # type: ignore[arg-type]


def _catalog_events() -> list[tuple[str, str, type]]:
    return [(svc.name, c.topic, e) for svc in discover() for c in svc.events for e in c.events]


def test_every_event_of_a_player_s_stream_names_the_player_id_in_its_data() -> None:
    found = [
        (s, e.TYPE) for s, _, e in _catalog_events() if s in PLAYER_STREAMS and "player_id" not in _fields(e)
    ]
    assert found == []


def test_match_stream_events_name_the_player_player_and_nothing_else_does() -> None:
    for _service, topic, event in _catalog_events():
        names = _fields(event)
        if topic.startswith("arcana.match."):
            assert "player_id" not in names, (topic, event.TYPE)
        else:
            assert "player" not in names, (topic, event.TYPE)
