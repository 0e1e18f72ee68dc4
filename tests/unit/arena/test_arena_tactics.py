"""The tactical bot (the practice bot): its choices in hand-made positions, its legality over many seeded
matches, and rounds that end by elimination more often than between the greedy bots it replaced."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from libs.games.arena import (
    State,
    decide,
    evolve,
    fold,
    greedy_bot,
    legal_commands,
    measure,
    start,
    tactical_bot,
    waits,
)
from libs.games.arena.game import Arena
from libs.games.arena.selfplay import RoundEnd, summarise
from libs.games.arena.state import Attack

from .support import A, B, C, position


def choose(state: State, player: str = A, seed: int = 0) -> dict[str, object]:
    command = tactical_bot(state, player, random.Random(seed))
    assert command is not None and command in legal_commands(state, player)
    return command


def test_it_attacks_the_weakest_opponent() -> None:
    state = position(
        {A: ["fireball-1"], B: ["shield-1"], C: ["mirror-1"]}, players=(A, B, C), life={B: 7, C: 4}
    )
    assert choose(state) == {"type": "play", "player": A, "card": "fireball-1", "target": C}


def test_it_never_hits_a_warded_opponent_when_another_can_be_hurt() -> None:
    state = position({A: ["fireball-1"]}, players=(A, B, C), life={B: 8, C: 2})
    state = replace(state, wards=(frozenset(), frozenset(), frozenset({"counter"})))
    assert choose(state)["target"] == B


def test_it_finishes_a_player_it_can_eliminate_rather_than_hide() -> None:
    hands = {A: ["shadow_veil-1", "fireball-1"], B: ["fireball-2"]}
    finishing = position(hands, life={A: 2, B: 1})
    assert choose(finishing) == {"type": "play", "player": A, "card": "fireball-1", "target": B}
    out_of_reach = position(hands, life={A: 2, B: 5})
    assert choose(out_of_reach) == {"type": "play", "player": A, "card": "shadow_veil-1"}


def test_it_takes_the_combo_its_hand_holds() -> None:
    burst = position({A: ["fireball-1", "explosion-1", "healing_light-1"]}, life={A: 6})
    chosen = choose(burst)
    assert (chosen["type"], chosen["combo"], chosen["target"]) == ("combo", "flame_burst", B)
    regeneration = position({A: ["healing_light-1", "healing_light-2", "mana_focus-1"]}, life={A: 3})
    chosen = choose(regeneration)
    assert (chosen["type"], chosen["combo"]) == ("combo", "mystic_regeneration")


@pytest.mark.parametrize("defence", ["shield-1", "arcane_barrier-1", "mirror-1"])
def test_it_keeps_its_defence_through_the_discard_phase_while_an_opponent_can_attack(defence: str) -> None:
    hand = [defence, "healing_light-1", "mana_focus-1", "hand_of_shadows-1"]
    state = replace(position({A: hand, B: ["fireball-1"]}), phase="discard")
    rng = random.Random(3)
    while state.active == 0 and not state.ended:
        command = tactical_bot(state, A, rng)
        assert command is not None and command in legal_commands(state, A)
        assert defence not in (command.get("discard") or []) and command.get("card") != defence, command
        for event in decide(state, command):
            state = evolve(state, event)
    assert defence in state.hands[0]


def test_it_does_not_spend_two_defences_on_a_fortress_at_full_life() -> None:
    state = position({A: ["shield-1", "arcane_barrier-1", "healing_light-1"]})
    assert choose(state)["type"] != "combo"


def test_it_answers_an_attack_with_a_defence_and_a_big_one_with_its_mirror() -> None:
    hand = ["shield-1", "mirror-1", "fireball-2"]
    small = position({A: ["fireball-1"], B: hand})
    small = replace(small, phase="reaction", pending=(Attack(1, 0, 1, 1, "fireball"),))
    assert choose(small, B)["type"] == "react"
    burst = replace(small, pending=(Attack(1, 0, 1, 3, "flame_burst"),))
    assert choose(burst, B) == {"type": "react", "player": B, "card": "mirror-1"}


def test_the_practice_bot_is_the_tactical_bot() -> None:
    state = position({A: ["fireball-1"], B: ["shield-1"], C: ["mirror-1"]}, players=(A, B, C), life={C: 4})
    assert Arena().bot(state, A, random.Random(0)) == choose(state)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_tactical_bot_only_sends_legal_commands_and_repeats_its_game_for_a_seed(players: int) -> None:
    transcripts = [_transcript(seed, players) for seed in range(4)]
    assert transcripts[0] == _transcript(0, players)
    assert len({str(t) for t in transcripts}) == len(transcripts)  # the seed does change the game


def _transcript(seed: int, players: int) -> list[dict[str, object]]:
    rng = random.Random(seed)
    state = fold(start({"match_id": "m", "seed": seed, "players": [{"id": f"p{i}"} for i in range(players)]}))
    sent = []
    while not state.ended:
        (wait,) = waits(state)
        command = tactical_bot(state, wait.player, rng)
        assert command is not None and command in legal_commands(state, wait.player)
        sent.append(command)
        for event in decide(state, command):
            state = evolve(state, event)
    return sent


def test_two_seat_rounds_end_by_elimination_more_often_than_between_the_old_greedy_bots() -> None:
    seeds = range(8)
    before = measure(seeds, 2, [greedy_bot])
    after = measure(seeds, 2, [tactical_bot])
    assert after.elimination > before.elimination + 0.15, (before, after)


def test_the_summary_counts_eliminations_and_nearest_rank_turns() -> None:
    rounds = [RoundEnd("last_standing", False, t, 9) for t in (10, 20, 30)]
    rounds += [RoundEnd("most_life", False, 40, 6), RoundEnd("most_life", True, 50, 3)]
    s = summarise(rounds)
    assert (s.rounds, s.elimination, s.deck_out) == (5, 0.6, 0.4)
    assert (s.turns_mean, s.turns_p50, s.turns_p90, s.life_lost_mean) == (30.0, 30.0, 50.0, 7.2)
