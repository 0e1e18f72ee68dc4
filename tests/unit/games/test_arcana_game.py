"""Arcana through the game interface: the conformance check on random matches, refusals as
precise exception types, waits as the rules' timers, and the result of an ended match."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from libs.games import IllegalCommand, IllegalDeck, MatchOver, Seat, Setup, registry
from libs.games.arcana import STARTER_DECK
from libs.games.arcana.errors import NotYourTurn, WrongPhase
from libs.games.arcana.game import GAME
from libs.games.conformance import play_out

A, B = "alice", "bob"


def _setup(seed: int, **options: object) -> Setup:
    seats = (Seat(A, tuple(STARTER_DECK)), Seat(B, tuple(STARTER_DECK)))
    return Setup("m1", seed, seats, "2026-12-01", options)


def _state(seed: int = 3, **options: object) -> Any:
    state = None
    for e in GAME.setup(_setup(seed, **options)):
        state = GAME.evolve(state, e)
    return state


def test_the_registry_hosts_arcana_by_default() -> None:
    assert registry.get("arcana") is GAME
    with pytest.raises(registry.UnknownGame):
        registry.get("chess")


@settings(max_examples=8, deadline=None)
@given(st.integers(min_value=0, max_value=2**40), st.integers(min_value=0, max_value=2**20))
def test_random_matches_keep_every_promise_of_the_interface(seed: int, moves: int) -> None:
    events = play_out(GAME, _setup(seed), random.Random(moves))
    assert events[-1]["type"] == "MatchEnded"


def test_each_refusal_is_its_own_type_with_the_rules_code() -> None:
    state = _state(first=A)
    with pytest.raises(WrongPhase) as refused:
        GAME.decide(state, {"type": "end_turn", "player": A})
    assert refused.value.code == "wrong_phase" and isinstance(refused.value, IllegalCommand)
    for player in (A, B):
        for e in GAME.decide(state, {"type": "mulligan", "player": player, "cards": []}):
            state = GAME.evolve(state, e)
    with pytest.raises(NotYourTurn):
        GAME.decide(state, {"type": "end_turn", "player": B})
    for e in GAME.decide(state, {"type": "concede", "player": A}):
        state = GAME.evolve(state, e)
    with pytest.raises(MatchOver):
        GAME.decide(state, {"type": "end_turn", "player": A})


def test_an_illegal_deck_is_an_illegal_deck() -> None:
    seats = (Seat(A, ("nope",) * 20), Seat(B, tuple(STARTER_DECK)))
    with pytest.raises(IllegalDeck) as refused:
        GAME.setup(Setup("m1", 1, seats, "2026-12-01"))
    assert isinstance(refused.value, IllegalCommand) and refused.value.code == "invalid_deck"


def test_waits_are_the_mulligan_then_the_turn_timers() -> None:
    state = _state(first=A)
    waits = GAME.waits(state)
    assert [(w.player, w.key, w.seconds) for w in waits] == [
        (A, f"mulligan:{A}", 30),
        (B, f"mulligan:{B}", 30),
    ]
    for wait in waits:  # an expired mulligan keeps the hand
        assert wait.timeout == {"type": "timeout", "player": wait.player}
        for e in GAME.decide(state, wait.timeout):
            state = GAME.evolve(state, e)
    (turn,) = GAME.waits(state)
    assert (turn.player, turn.key, turn.seconds, turn.timeout) == (
        A,
        "turn:1",
        60,
        {"type": "timeout", "player": A},
    )
    assert GAME.progress(state).active == A


def test_the_result_of_a_conceded_match() -> None:
    state = _state(first=A)
    assert GAME.result(state) is None
    for e in GAME.decide(state, {"type": "concede", "player": B}):
        state = GAME.evolve(state, e)
    result = GAME.result(state)
    assert result is not None
    assert (result.winner, result.reason, result.placements, result.losers) == (
        A,
        "concede",
        ((A,), (B,)),
        (B,),
    )
    assert not result.draw and set(result.stats) == {A, B}


class _OldNames(type(GAME)):  # type: ignore[misc]
    """Arcana emitting its events as schema version 1 named the player: conformance refuses it."""

    def decide(self, state: Any, command: Any) -> list[dict[str, Any]]:
        return [
            {("player" if k == "player_id" else k): v for k, v in e.items()}
            for e in super().decide(state, command)
        ]

    def evolve(self, state: Any, event: Any) -> Any:
        return super().evolve(state, {("player_id" if k == "player" else k): v for k, v in event.items()})


def test_the_conformance_check_refuses_an_event_that_names_its_player_player() -> None:
    with pytest.raises(AssertionError, match="never `player`"):
        play_out(_OldNames(), _setup(3), random.Random(1))
