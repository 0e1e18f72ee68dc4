"""The line through the match service's game interface (`libs.games`): the conformance check, refusals
as the interface's exception types, no waits, the result. Runs where `libs.games` exists."""

from __future__ import annotations

import random

import pytest

games = pytest.importorskip("libs.games")
conformance = pytest.importorskip("libs.games.conformance")

from libs.games.line import WELCOME_LINE, combat_log, fold  # noqa: E402
from libs.games.line.game import GAME, InvalidLine  # noqa: E402

OTHER = ("bog_lurker", "gale_duelist", "comet_sage", "dawn_priestess", "war_drummer")


def setup(seed: int, a: tuple[str, ...] = WELCOME_LINE, b: tuple[str, ...] = OTHER, **options: object):
    return games.Setup("m1", seed, (games.Seat("alice", a), games.Seat("bob", b)), "2026-12-01", options)


@pytest.mark.parametrize("seed", range(6))
def test_fights_keep_every_promise_of_the_interface(seed: int) -> None:
    events = conformance.play_out(GAME, setup(seed), random.Random(seed))
    assert events[-1]["type"] == "MatchEnded"
    state = fold(events)
    assert GAME.waits(state) == [] and GAME.legal_commands(state, "alice") == []
    result = GAME.result(state)
    assert result is not None and result.winner == state.winner
    assert result.placements == ((state.winner,), (state.loser,))
    assert all(result.stats[p]["turns"] == state.round for p in ("alice", "bob"))
    assert GAME.view(state, "bob")["log"] == combat_log(events, "bob")
    assert "seed" not in GAME.visible_event(events[0], None)


def test_refusals_are_the_interfaces_types() -> None:
    with pytest.raises(games.IllegalDeck) as refused:
        GAME.setup(setup(1, b=OTHER[:4]))
    assert isinstance(refused.value, InvalidLine) and refused.value.code == "invalid_line"
    assert refused.value.problems == {"bob": ["a line has exactly 5 cards, not 4"]}
    state = fold(GAME.setup(setup(1, first="bob")))
    with pytest.raises(games.MatchOver):
        GAME.decide(state, GAME.forfeit("alice", "disconnect"))
    assert GAME.name == "line" and GAME.seats == frozenset({2})
    assert GAME.deck_problems(list(WELCOME_LINE)) == [] and GAME.deck_problems(["x"]) != []
