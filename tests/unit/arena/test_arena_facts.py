"""Every event the arena emits is exactly one of its typed declarations (``libs.games.arena.facts``), and what
everyone sees of it (the live topic) exactly its public form: the generated schemas and the relay's
check cannot drift from the rules."""

from __future__ import annotations

from hypothesis import given, settings

from libs.games.arena import visible_event
from libs.games.arena.facts import FACTS, PUBLIC
from libs.games.arena.game import GAME
from libs.kit.schemas import problems
from tests.unit.arena.test_arena_properties import run, seeds, sizes

BY_TYPE = {f.TYPE: f for f in FACTS}


@settings(max_examples=10, deadline=None)
@given(seeds, sizes)
def test_every_emitted_event_is_exactly_its_declared_type_and_its_public_form(
    seed: int, players: int
) -> None:
    events, _ = run(seed, players, check=False)
    for event in events:
        data = {k: v for k, v in event.items() if k != "type"}
        assert problems(BY_TYPE[event["type"]], data, exact=True) == []
        public = {k: v for k, v in visible_event(event, None).items() if k != "type"}
        assert problems(PUBLIC[event["type"]], public, exact=True) == []


def test_every_declared_type_is_emitted_in_some_match() -> None:
    emitted = {e["type"] for seed in range(40) for e in run(seed, 2 + seed % 3, check=False)[0]}
    assert set(BY_TYPE) - emitted <= {"NothingDrawn", "RoundReplayed"}, set(BY_TYPE) - emitted


def test_the_game_declares_them_for_the_catalog_and_the_schemas() -> None:
    assert GAME.events == FACTS and set(GAME.public_events) == set(PUBLIC.values())
    assert all(f.GAME == "arena" for f in (*GAME.events, *GAME.public_events))
