"""Machine-readable schemas (issue 20, point 4): a JSON Schema per (topic, type, version) generated
into docs/schemas and checked current; each a valid Draft 2020-12 schema that accepts what the
declarations accept; a relay's check refuses what a topic does not declare."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest

from libs.config import PROJECT_ROOT
from libs.eventstore import RecordedEvent
from libs.games.arcana.facts import FACTS
from libs.kit.registry import definition, discover
from libs.kit.schemas import catalog_check, problems, schema_path, schemas_of
from tests.unit.rules.test_rules_facts import game_events

SCHEMAS = PROJECT_ROOT / "docs" / "schemas"


def test_the_checked_in_schemas_are_current() -> None:
    wanted = {
        path: json.dumps(schema, indent=2, sort_keys=True) + "\n"
        for path, schema in schemas_of(discover()).items()
    }
    present = {p.relative_to(SCHEMAS): p.read_text() for p in SCHEMAS.rglob("*.json")}
    assert sorted(present) == sorted(wanted), "run `make docs-schemas`"
    for path, text in wanted.items():
        assert present[path] == text, f"{path} is stale: run `make docs-schemas`"


def test_every_topic_and_type_has_a_schema_and_each_is_a_valid_schema() -> None:
    for svc in discover():
        for catalog in svc.events:
            for event in catalog.events:
                path = SCHEMAS / schema_path(catalog.topic, event)
                schema = json.loads(path.read_text())
                jsonschema_rs.meta.validate(schema)
                assert set(schema["required"]) <= set(schema["properties"]), path


def event(kind: str, data: dict[str, Any], version: int = 1) -> RecordedEvent:
    return RecordedEvent(uuid.uuid4(), "match-1", 1, 1, kind, version, datetime.now(UTC), None, None, data)


def test_the_schemas_and_the_declarations_agree_on_what_the_engine_emits() -> None:
    records = {e.TYPE: e for e in FACTS}
    for emitted in game_events(11):
        kind = emitted["type"]
        if kind == "MatchEnded":
            continue  # stored enriched by the match service: its own schema
        data = {k: v for k, v in emitted.items() if k != "type"}
        schema = json.loads(
            (SCHEMAS / "arcana.match.records" / f"{kind}.v{records[kind].VERSION}.json").read_text()
        )
        assert jsonschema_rs.is_valid(schema, data) and problems(records[kind], data) == []
        broken = {**data, next(iter(data)): {"not": "this"}}
        assert not jsonschema_rs.is_valid(schema, broken) and problems(records[kind], broken) != []


def test_a_relay_check_names_what_a_topic_does_not_declare() -> None:
    check = catalog_check(definition("match").events)
    ended = {
        "winner": "a", "reason": "concede", "match_id": "m", "mode": "casual", "players": ["a", "b"],
        "loser": "b", "draw": False, "turns": 5, "round": 3, "bot": None, "stats": {},
    }  # fmt: skip
    assert check("arcana.match.events", event("MatchEnded", ended)) == []
    assert check("arcana.match.events", event("MatchEnded", {**ended, "turns": "5"})) == [
        "MatchEnded: 'turns' is not int: '5'"
    ]
    assert check(
        "arcana.match.events", event("DeckShuffled", {"player_id": "a", "order": []}, version=2)
    ) == [
        "DeckShuffled is not declared on arcana.match.events"  # a deck order never goes on the live topic
    ]
    rejected = {
        "match_id": "m",
        "request_id": "r",
        "mode": "casual",
        "players": [],
        "reason": "x",
        "message": "",
        "problems": {},
    }
    assert check("arcana.match.records", event("MatchRequestRejected", rejected)) == [
        "MatchRequestRejected is not declared on arcana.match.records"
    ]
    assert check("arcana.match.events", event("MatchEnded", ended, version=2)) != []  # newer than declared
    assert check("some.other.topic", event("Anything", {})) == []


@pytest.mark.parametrize("topic", ["arcana.match.events", "arcana.match.records"])
def test_the_match_topics_declare_the_game_events(topic: str) -> None:
    types = {e.TYPE for c in definition("match").events if c.topic == topic for e in c.events}
    assert {"MatchStarted", "CardPlayed", "TurnStarted", "MatchEnded"} <= types
    assert ("DeckShuffled" in types) == (topic == "arcana.match.records")
    assert Path(SCHEMAS / topic / "CardPlayed.v2.json").is_file()


def test_an_older_version_still_on_a_topic_keeps_its_schema_and_is_checked_against_it() -> None:
    """Economy's version 2 added `player_id` (and a credit's `earned_at`): the version 1 events a
    topic carries as stored keep their schema, without them; each version is checked as declared."""
    topic = "arcana.economy.events"
    v1 = {"card_id": "wolf_pup", "rarity": "common", "dust_spent": 20, "dust_after": 0}
    v2 = {**v1, "player_id": "p"}
    schemas = {v: json.loads((SCHEMAS / topic / f"CardCrafted.v{v}.json").read_text()) for v in (1, 2)}
    assert jsonschema_rs.is_valid(schemas[1], v1) and not jsonschema_rs.is_valid(schemas[2], v1)
    assert jsonschema_rs.is_valid(schemas[2], v2)
    check = catalog_check(definition("economy").events)
    assert check(topic, event("CardCrafted", v1, version=1)) == []
    assert check(topic, event("CardCrafted", v1, version=2)) == ["CardCrafted: no 'player_id'"]
    assert check(topic, event("CardCrafted", {**v1, "dust_after": "0"}, version=1)) != []


def test_the_arena_s_events_are_declared_apart_and_checked_against_the_arena_s_form() -> None:
    """The arena's types share names with Arcana's (``MatchStarted``, ``CardDrawn``): their schemas are
    under ``arena/``; the live topic accepts an event that conforms to one of the declarations of its
    type, and still refuses the pile's order."""
    check = catalog_check(definition("match").events)
    live, records = "arcana.match.events", "arcana.match.records"
    assert (SCHEMAS / live / "arena" / "RoundStarted.v1.json").is_file()
    assert (SCHEMAS / live / "CardDrawn.v2.json").is_file()  # Arcana's, where it was
    round_started = {"round": 1, "first": "a", "pile": ["fireball-1"]}
    assert check(records, event("RoundStarted", round_started)) == []
    assert check(live, event("RoundStarted", {"round": 1, "first": "a", "pile_count": 1})) == []
    assert check(live, event("RoundStarted", round_started)) == ["RoundStarted: no 'pile_count'"]
    assert (
        check(live, event("CardDrawn", {"player_id": "a", "reason": "deal"}, version=2)) == []
    )  # the arena's
    assert (
        check(live, event("CardDrawn", {"reason": "deal"}, version=2)) != []
    )  # neither Arcana's nor the arena's
    passed = {"player_id": "a", "attack": 1, "timed_out": "yes"}
    assert check(live, event("ReactionPassed", passed, version=2)) == [
        "ReactionPassed: 'timed_out' is not bool: 'yes'"
    ]
