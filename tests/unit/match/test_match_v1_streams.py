"""Match streams recorded before the rename (issue 20, point 5), one complete match of each built-in
game in ``data/<game>.v1.jsonl``: recorded by the code of commit daa4546, whose events named the
acting player ``player`` (schema version 1; Arcana's stream holds a disconnection and a
reconnection too). Read through the match service's upcasters they are version 2 (``player_id``),
fold to the end, replay with every stored state hash matching, and are what the topics declare."""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from libs.eventstore import RecordedEvent
from libs.kit import definition
from libs.kit.schemas import catalog_check
from services.match import domain
from services.match.events import RECORDS_TOPIC, TOPIC
from services.match.repository import as_rows
from services.match.upcasting import schema_version, upcast, upcast_event

DATA = Path(__file__).parent / "data"
GAMES = ("arcana", "line", "arena")


def recorded(game: str) -> list[RecordedEvent]:
    """The stream as stored then (every event schema version 1)."""
    out = []
    for n, line in enumerate((DATA / f"{game}.v1.jsonl").read_text().splitlines(), 1):
        raw = json.loads(line)
        out.append(
            RecordedEvent(
                uuid.uuid5(uuid.NAMESPACE_URL, f"{game}/{n}"),
                f"match-m-{game}",
                raw["version"],
                n,
                raw["type"],
                raw["schema_version"],
                datetime.fromisoformat(raw["occurred_at"]),
                None,
                None,
                raw["data"],
            )
        )
    return out


def _player_named(events: list[RecordedEvent], key: str) -> set[str]:
    return {e.type for e in events if key in e.data}


@pytest.mark.parametrize("game", GAMES)
def test_a_version_1_stream_reads_as_version_2_with_player_id_and_nothing_else_changed(game: str) -> None:
    stored = recorded(game)
    assert all(e.schema_version == 1 for e in stored) and _player_named(stored, "player_id") == set()
    renamed = _player_named(stored, "player")
    assert renamed
    read = upcast(stored)
    assert _player_named(read, "player") == set() and _player_named(read, "player_id") == renamed
    for before, after in zip(stored, read, strict=True):
        assert after.schema_version == schema_version(game, before.type)
        assert list(after.data.values()) == list(before.data.values())  # same values, same order
        assert (after.event_id, after.version, after.type) == (before.event_id, before.version, before.type)


@pytest.mark.parametrize("game", GAMES)
def test_a_version_1_stream_replays_upcast_with_every_stored_state_hash_matching(game: str) -> None:
    read = upcast(recorded(game))
    assert sum(domain.HASH_KEY in e.data for e in read) >= 1
    assert domain.replay_problems(as_rows(read)) == []
    m = domain.fold_match(as_rows(read))
    assert m.game == game and m.ended and m.version == len(read)
    tampered = [*read[:-1], _with(read[-1], {domain.HASH_KEY: "0" * 64})]
    assert domain.replay_problems(as_rows(tampered)) != []  # the check still checks


def test_without_the_upcast_the_engines_would_not_read_a_version_1_stream() -> None:
    with pytest.raises(KeyError):
        domain.fold_match(as_rows(recorded("arcana")))


@pytest.mark.parametrize("game", GAMES)
def test_a_version_1_stream_upcast_is_what_the_match_topics_declare(game: str) -> None:
    check = catalog_check(definition("match").events)
    read = upcast(recorded(game))
    players = domain.fold_match(as_rows(read)).players
    problems: list[Any] = []
    for e in read:
        if e.type != "MatchRequestRejected":
            problems += check(RECORDS_TOPIC, e)
        live = domain.live_event(e.type, e.data, game)
        if live is not None:
            problems += check(TOPIC, _with(e, live, replace=True))
        for viewer in players:
            seen = domain.client_event(e.type, e.data, viewer, game)
            assert seen is None or "player" not in seen
    assert problems == []


def test_the_upcasters_rename_only_a_field_called_player_and_bump_the_version_once() -> None:
    event = recorded("arcana")[0]
    for kind, data in (
        ("TurnStarted", {"player": "a", "turn": 1}),
        ("UnitDied", {"unit": "c1", "player": "b"}),
    ):
        up = upcast_event(_with(event, data, replace=True, kind=kind), "arcana")
        assert (up.type, up.schema_version) == (kind, 2)
        assert up.data == {("player_id" if k == "player" else k): v for k, v in data.items()}
        assert upcast_event(up, "arcana") is up  # version 2 is current: nothing more to do
    untouched = _with(
        event, {"match_id": "m", "players": ["a"], "first": "a"}, replace=True, kind="MatchStarted"
    )
    assert upcast_event(untouched, "arcana") is untouched


def _with(
    event: RecordedEvent, data: dict[str, Any], *, replace: bool = False, kind: str | None = None
) -> RecordedEvent:
    new = dict(data) if replace else {**event.data, **data}
    version = 1 if kind is not None else event.schema_version
    return RecordedEvent(
        event.event_id,
        event.stream,
        event.version,
        event.position,
        kind or event.type,
        version,
        event.occurred_at,
        event.correlation_id,
        event.causation_id,
        new,
    )
