"""Every event the engine emits is exactly one of its typed declarations (``libs.games.arcana.facts``), and
what a spectator sees of it is exactly its public form: the generated schemas cannot drift from the
engine (issue 20, point 4)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, ClassVar

from hypothesis import given, settings
from hypothesis import strategies as st

from libs.analytics.simulate import random_deck
from libs.games.arcana import decide, evolve, fold, start, visible_event
from libs.games.arcana.bots import random_bot
from libs.games.arcana.facts import FACTS, PUBLIC, Fact
from libs.kit.schemas import problems

BY_TYPE = {f.TYPE: f for f in FACTS}


def game_events(seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    setup = {
        "match_id": f"m{seed}",
        "seed": seed,
        "players": [{"id": p, "deck": random_deck(rng)} for p in "ab"],
    }
    events = start(setup)
    state = fold(events)
    while state.phase != "ended":
        if state.phase == "mulligan":
            player = "a" if not state.players[0].mulligan_done else "b"
        else:
            player = state.pids[state.active]
        command = random_bot(state, player, rng)
        assert command is not None
        new = decide(state, command)
        for event in new:
            state = evolve(state, event)
        events += new
    return events


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=2**31))
def test_every_emitted_event_is_exactly_its_declared_type(seed: int) -> None:
    for event in game_events(seed):
        data = {k: v for k, v in event.items() if k != "type"}
        assert problems(BY_TYPE[event["type"]], data, exact=True) == []
        seen = visible_event(event, "spectator")
        if event["type"] == "DeckShuffled":
            assert seen is None and event["type"] not in PUBLIC
            continue
        assert seen is not None
        public = {k: v for k, v in seen.items() if k != "type"}
        assert problems(PUBLIC[event["type"]], public, exact=True) == []


def test_every_declared_type_is_emitted_in_some_game() -> None:
    emitted = {e["type"] for seed in range(40) for e in game_events(seed)}
    assert set(BY_TYPE) - emitted <= {"HeroHealed", "TurnTimedOut", "WardBroken"}, set(BY_TYPE) - emitted


def test_the_check_finds_a_wrong_type_a_missing_field_and_an_undeclared_one() -> None:
    @dataclass(frozen=True)
    class Planted(Fact):
        TYPE: ClassVar[str] = "Planted"
        player: str = field(metadata={"doc": "x"})
        count: int = field(metadata={"doc": "y"})

    assert problems(Planted, {"player": "a", "count": 1}, exact=True) == []
    assert problems(Planted, {"player": "a", "count": "1"}) == ["Planted: 'count' is not int: '1'"]
    assert problems(Planted, {"count": 1}) == ["Planted: no 'player'"]
    assert problems(Planted, {"player": "a", "count": 1, "extra": 2}, exact=True) == [
        "Planted: 'extra' is not declared"
    ]
    assert problems(Planted, {"player": "a", "count": 1, "extra": 2}) == []  # a newer producer's field
