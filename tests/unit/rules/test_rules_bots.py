"""The bots: both play legal games to the end; the greedy bot beats the random one in >= 80% of games."""

from __future__ import annotations

import random

from libs.games.arcana import STARTER_DECK, decide, evolve, fold, start
from libs.games.arcana.bots import greedy_bot, random_bot

from .support import random_deck, to_move

GAMES = 100


def duel(seed: int, greedy_seat: int) -> str | None:
    rng = random.Random(seed)
    pids = ["g", "r"] if greedy_seat == 0 else ["r", "g"]
    decks = [random_deck(rng), random_deck(rng)] if seed % 2 else [list(STARTER_DECK), list(STARTER_DECK)]
    state = fold(
        start(
            {
                "match_id": f"d{seed}",
                "seed": seed,
                "players": [{"id": pids[i], "deck": decks[i]} for i in (0, 1)],
            }
        )
    )
    while state.phase != "ended":
        mover = to_move(state)
        bot = greedy_bot if mover == "g" else random_bot
        command = bot(state, mover, rng)
        assert command is not None
        for event in decide(state, command):
            state = evolve(state, event)
    return state.winner


def test_greedy_beats_random_in_at_least_80_percent() -> None:
    wins = sum(duel(seed, seed % 2) == "g" for seed in range(GAMES))
    assert wins >= 0.8 * GAMES, wins


def test_random_bot_has_nothing_to_do_off_turn() -> None:
    state = fold(
        start(
            {
                "match_id": "x",
                "seed": 1,
                "first": "a",
                "players": [{"id": "a", "deck": list(STARTER_DECK)}, {"id": "b", "deck": list(STARTER_DECK)}],
            }
        )
    )
    rng = random.Random(0)
    for pid in ("a", "b"):
        for event in decide(state, {"type": "mulligan", "player": pid, "cards": []}):
            state = evolve(state, event)
    assert random_bot(state, "b", rng) is None and greedy_bot(state, "b", rng) is None
    assert random_bot(state, "a", rng) is not None
