"""Arcane Arena through the match service's game interface (`libs.games`): the conformance check on
random 2-4 player matches, refusals as the interface's types, waits, forfeits. Runs where `libs.games`
exists."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

games = pytest.importorskip("libs.games")
conformance = pytest.importorskip("libs.games.conformance")

from libs.games.arena import fold  # noqa: E402
from libs.games.arena.game import ERRORS, GAME  # noqa: E402


def setup(seed: int, players: int, **options: object):
    seats = tuple(games.Seat(f"p{i}") for i in range(players))
    return games.Setup("m1", seed, seats, "2026-12-01", options)


@settings(max_examples=10, deadline=None)
@given(st.integers(min_value=0, max_value=2**40), st.integers(min_value=2, max_value=4))
def test_random_matches_keep_every_promise_of_the_interface(seed: int, players: int) -> None:
    events = conformance.play_out(GAME, setup(seed, players), random.Random(seed), max_steps=20_000)
    state = fold(events)
    result = GAME.result(state)
    assert result is not None and result.placements[0] == (result.winner,)
    assert all("turns" in result.stats[p] for p in GAME.seated(state))


def test_refusals_waits_and_a_forfeit_through_the_interface() -> None:
    assert {cls.code for cls in ERRORS} >= {"not_your_turn", "wrong_phase", "card_not_in_hand", "match_over"}
    with pytest.raises(games.IllegalSetup):
        GAME.setup(setup(1, 5))
    state = fold(GAME.setup(setup(1, 3, first="p0")))
    (wait,) = GAME.waits(state)
    assert (wait.player, wait.key, wait.seconds, wait.timeout) == (
        "p0",
        "action:1",
        60,
        {"type": "timeout", "player": "p0"},
    )
    with pytest.raises(games.IllegalCommand) as refused:
        GAME.decide(state, {"type": "draw", "player": "p1"})
    assert refused.value.code == "not_your_turn"
    assert all("player" not in c for c in GAME.legal_commands(state, "p0"))
    for e in GAME.decide(state, GAME.forfeit("p1", "disconnect")):
        state = GAME.evolve(state, e)
    assert GAME.playing(state) == ["p0", "p2"] and GAME.result(state) is None
    for e in GAME.decide(state, GAME.forfeit("p2", "disconnect")):
        state = GAME.evolve(state, e)
    result = GAME.result(state)
    assert result is not None and result.placements == (("p0",), ("p2",), ("p1",))
    with pytest.raises(games.MatchOver):
        GAME.decide(state, {"type": "draw", "player": "p0"})
