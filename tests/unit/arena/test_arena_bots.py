"""The bots: legal moves, and the greedy bot beats random players."""

from __future__ import annotations

import random

from libs.games.arena import decide, evolve, fold, greedy_bot, legal_commands, random_bot, start, waits


def test_the_greedy_bot_plays_legal_moves_and_beats_two_random_players() -> None:
    wins = 0
    games = 12
    for seed in range(games):
        rng = random.Random(seed)
        state = fold(
            start({"match_id": "m", "seed": seed, "players": [{"id": "g"}, {"id": "r1"}, {"id": "r2"}]})
        )
        while not state.ended:
            (wait,) = waits(state)
            bot = greedy_bot if wait.player == "g" else random_bot
            command = bot(state, wait.player, rng)
            assert command in legal_commands(state, wait.player)
            for e in decide(state, command):
                state = evolve(state, e)
        wins += state.winner == "g"
    assert wins >= games * 2 // 3, wins  # a random player would win a third


def test_a_bot_has_no_move_when_the_match_does_not_wait_for_it() -> None:
    state = fold(start({"match_id": "m", "seed": 1, "players": [{"id": "a"}, {"id": "b"}], "first": "a"}))
    assert (
        greedy_bot(state, "b", random.Random(0)) is None and random_bot(state, "b", random.Random(0)) is None
    )
