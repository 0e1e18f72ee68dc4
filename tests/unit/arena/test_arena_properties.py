"""Property tests: random 2-4 player matches from random seeds, checked at every step."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from libs.games.arena import (
    COMBOS,
    DECK,
    MAX_LIFE,
    ArenaRuleViolation,
    State,
    decide,
    evolve,
    fold,
    legal_commands,
    random_bot,
    start,
    state_hash,
    view,
    visible_event,
    waits,
)

seeds = st.integers(min_value=0, max_value=2**63)
sizes = st.integers(min_value=2, max_value=4)
MAX_STEPS = 400


def key(command: dict[str, Any]) -> str:
    return json.dumps(command, sort_keys=True)


def candidates(state: State, rng: random.Random) -> list[dict[str, Any]]:
    """Commands for every player, legal or not: each type with cards and targets drawn from anywhere."""
    cards = [*DECK, "nope"]
    out: list[dict[str, Any]] = []
    for pid in state.pids:
        out += [{"type": t, "player": pid} for t in ("draw", "pass")]
        for _ in range(6):
            target = rng.choice([*state.pids, None])
            out.append({"type": "play", "player": pid, "card": rng.choice(cards), "target": target})
            out.append({"type": "react", "player": pid, "card": rng.choice(cards)})
            out.append({"type": "swap", "player": pid, "card": rng.choice(cards)})
            out.append(
                {
                    "type": "combo",
                    "player": pid,
                    "combo": rng.choice(list(COMBOS)),
                    "bonus": rng.choice(["draw", "life"]),
                    "target": target,
                    "card": rng.choice([None, *state.discard, *cards[:2]]),
                }
            )
            out.append({"type": "end_turn", "player": pid, "discard": rng.sample(cards, rng.randrange(3))})
    return [{k: v for k, v in c.items() if v is not None} for c in out]


def check_invariants(state: State) -> None:
    every = [c for h in state.hands for c in h] + [*state.pile, *state.discard, *state.removed]
    assert sorted(every) == sorted(DECK), "a card was lost or duplicated"
    assert all(0 <= life <= MAX_LIFE for life in state.life)
    for seat, hand in enumerate(state.hands):
        if seat != state.active and not state.ended:
            assert len(hand) <= 3
        if not state.in_round[seat]:
            assert hand == ()


def check_views(state: State, events: list[dict[str, Any]]) -> None:
    for seat, pid in enumerate(state.pids):
        seen = json.dumps(view(state, pid))
        for other, hand in enumerate(state.hands):
            if other != seat:
                assert not any(f'"{c}"' in seen for c in hand), "another player's hand leaked into a view"
        for e in events:
            shown = visible_event(e, pid)
            assert "seed" not in shown and "pile" not in shown
            if e["type"] == "CardDrawn" and e["player_id"] != pid:
                assert "card" not in shown


def run(seed: int, players: int, check: bool) -> tuple[list[dict[str, Any]], State]:
    rng = random.Random(seed)
    events = start({"match_id": "m", "seed": seed, "players": [{"id": f"p{i}"} for i in range(players)]})
    state = fold(events)
    for _ in range(MAX_STEPS):
        if state.ended:
            break
        check_invariants(state)
        (wait,) = waits(state)
        if check:
            offered = [c for pid in state.pids for c in legal_commands(state, pid)]
            legal = {key(c) for c in offered}
            assert all(c["player"] == wait.player for c in offered)
            for command in candidates(state, rng) + [dict(json.loads(k)) for k in legal]:
                try:
                    decide(state, command)
                    accepted = True
                except ArenaRuleViolation:
                    accepted = False
                assert accepted == (key(command) in legal), command
        roll = rng.random()
        if roll < 0.03:
            command = wait.timeout
        elif roll < 0.035:
            command = {
                "type": "forfeit",
                "player": rng.choice(
                    [p for p in state.pids if p in state.pids and state.in_match[state.seat(p)]]
                ),
                "reason": "disconnect",
            }
        else:
            command = random_bot(state, wait.player, rng)
        new = decide(state, command)
        assert new
        before = state_hash(state)
        for e in new:
            state = evolve(state, e)
        events += new
        assert before != state_hash(state)
    check_invariants(state)
    return events, state


@settings(max_examples=12, deadline=None)
@given(seeds, sizes)
def test_every_legal_command_is_accepted_and_nothing_else_and_no_card_is_lost(
    seed: int, players: int
) -> None:
    events, state = run(seed, players, check=True)
    check_views(state, events)


@settings(max_examples=15, deadline=None)
@given(seeds, sizes)
def test_replaying_the_events_gives_the_same_state(seed: int, players: int) -> None:
    events, state = run(seed, players, check=False)
    assert fold(events) == state and state_hash(fold(events)) == state_hash(state)
    assert fold(events[: len(events) // 2]) == fold(events[: len(events) // 2])


@settings(max_examples=15, deadline=None)
@given(seeds, sizes)
def test_random_matches_end_with_every_player_placed_once(seed: int, players: int) -> None:
    rng = random.Random(seed)
    state = fold(start({"match_id": "m", "seed": seed, "players": [{"id": f"p{i}"} for i in range(players)]}))
    steps = 0
    while not state.ended:
        (wait,) = waits(state)
        command = random_bot(state, wait.player, rng) if rng.random() > 0.02 else wait.timeout
        for e in decide(state, command):
            state = evolve(state, e)
        steps += 1
        assert steps < 50_000
    placed = [p for group in state.placements for p in group]
    assert sorted(placed) == sorted(state.pids) and state.placements[0] == (state.winner,)
    assert state.wins[state.seat(state.winner)] == 3 or state.reason == "last_in_match"
