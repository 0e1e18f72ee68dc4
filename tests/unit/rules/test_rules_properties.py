"""Property tests: random legal play from random decks and seeds, checked at every step."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from libs.games.arcana import (
    LAST_ROUND,
    RuleViolation,
    State,
    decide,
    evolve,
    fold,
    legal_commands,
    start,
    state_hash,
)
from libs.games.arcana.constants import BOARD_SIZE, DECK_SIZE, MAX_HEALTH, MAX_MANA

from .support import random_setup, to_move

seeds = st.integers(min_value=0, max_value=2**31)


def key(command: dict[str, Any]) -> tuple:
    """A hashable form of a command; a None field counts as absent (as `decide` reads it)."""
    return tuple(
        sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in command.items() if v is not None)
    )


def check_invariants(state: State) -> None:
    assert state.round <= LAST_ROUND
    for p in state.players:
        assert len(p.board) <= BOARD_SIZE
        assert 0 <= p.mana <= p.max_mana <= MAX_MANA
        assert p.hero <= MAX_HEALTH
        zones = [*p.deck, *p.hand, *(u.id for u in p.board), *p.grave]
        assert len(zones) == DECK_SIZE and len(set(zones)) == DECK_SIZE
        assert all(u.health > 0 for u in p.board)
    ids = [set(p.deck) | set(p.hand) | {u.id for u in p.board} | set(p.grave) for p in state.players]
    assert not ids[0] & ids[1]


def candidates(state: State, rng: random.Random) -> list[dict[str, Any]]:
    """A sample of commands, legal or not, for both players."""
    units = [u.id for p in state.players for u in p.board]
    cards = [c for p in state.players for c in p.hand] + ["nope"]
    out: list[dict[str, Any]] = []
    for pid in state.pids:
        out.append({"type": "end_turn", "player": pid})
        hand = state.players[state.index(pid)].hand
        out.append({"type": "mulligan", "player": pid, "cards": list(hand[:1])})
        for _ in range(12):
            card = rng.choice(cards)
            if rng.random() < 0.5:
                out.append({"type": "play", "player": pid, "card": card, "position": rng.randrange(-1, 8)})
            else:
                out.append(
                    {
                        "type": "play",
                        "player": pid,
                        "card": card,
                        "target": rng.choice([*units, "hero", None]),
                    }
                )
        for _ in range(8):
            out.append(
                {
                    "type": "attack",
                    "player": pid,
                    "attacker": rng.choice([*units, "x"]),
                    "target": rng.choice([*units, "hero"]),
                }
            )
    return out


def play_out(setup: dict[str, Any], pick: int, check_agreement: bool) -> tuple[list[dict[str, Any]], State]:
    rng = random.Random(pick)
    events = start(setup)
    state = fold(events)
    while state.phase != "ended":
        check_invariants(state)
        mover = to_move(state)
        legal = legal_commands(state, mover)
        assert legal
        if check_agreement:
            before = state_hash(state)
            both = [c for pid in state.pids for c in legal_commands(state, pid)]
            listed = {key(c) for c in both}
            for command in both:
                decide(state, command)  # every listed command is accepted
            for command in candidates(state, rng):
                if key(command) in listed:
                    continue
                try:
                    decide(state, command)
                except RuleViolation:
                    continue
                raise AssertionError(f"accepted but not listed: {command}")
            assert state_hash(state) == before  # decide never changes the state
        command = rng.choice(legal)
        new_events = decide(state, command)
        assert new_events
        for event in new_events:
            previous = state
            snapshot = state_hash(previous) if check_agreement else None
            state = evolve(state, event)
            if snapshot is not None:
                assert state_hash(previous) == snapshot  # evolve never mutates its input
        events += new_events
    check_invariants(state)
    return events, state


@settings(max_examples=200, deadline=None)
@given(seeds, seeds)
def test_random_legal_play_never_raises_and_fold_matches_evolve(seed: int, pick: int) -> None:
    events, state = play_out(random_setup(seed), pick, check_agreement=False)
    folded = fold(events)
    assert folded == state
    assert fold(json.loads(json.dumps(events))) == state  # events survive a JSON round trip
    assert state_hash(folded) == state_hash(state)
    assert state.winner is not None and state.round <= LAST_ROUND
    assert events[-1]["type"] == "MatchEnded"


@settings(max_examples=40, deadline=None)
@given(seeds, seeds)
def test_legal_commands_and_decide_agree(seed: int, pick: int) -> None:
    play_out(random_setup(seed) | {"shuffle": seed % 2 == 0}, pick, check_agreement=True)


@settings(max_examples=30, deadline=None)
@given(seeds)
def test_replay_from_any_prefix_gives_the_same_state(seed: int) -> None:
    events, _ = play_out(random_setup(seed), seed, check_agreement=False)
    cut = random.Random(seed).randrange(1, len(events))
    state = fold(events[:cut])
    for event in events[cut:]:
        state = evolve(state, event)
    assert state == fold(events)


def test_every_game_ends_by_the_last_round() -> None:
    rounds = []
    for seed in range(100):
        _, state = play_out(random_setup(seed), seed, check_agreement=False)
        rounds.append(state.round)
    assert max(rounds) <= LAST_ROUND


def test_state_hash_tells_states_apart() -> None:
    events, _ = play_out(random_setup(3), 3, check_agreement=False)
    hashes = [state_hash(fold(events[:n])) for n in range(1, len(events) + 1)]
    assert hashes[-1] == state_hash(fold(events))
    assert len(set(hashes)) > len(hashes) * 0.9
