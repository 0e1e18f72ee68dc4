"""Property tests: any two legal lines and any seed."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from libs.games.line import CATALOG, MAX_ROUNDS, evolve, fight, fold, start, state_hash
from libs.games.line.state import State

ids = sorted(CATALOG)
lines = st.lists(st.sampled_from(ids), min_size=5, max_size=5, unique=True)
seeds = st.integers(min_value=0, max_value=2**63)


def setup(
    a: list[str], b: list[str], seed: int, match_id: str = "m", pids: tuple[str, str] = ("a", "b")
) -> dict:
    return {
        "match_id": match_id,
        "seed": seed,
        "players": [{"id": pids[0], "deck": a}, {"id": pids[1], "deck": b}],
    }


def outcome(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The fight without its names: every event's fields but the match id, players as side indexes."""
    pids = [p["id"] for p in events[0]["players"]]
    out = []
    for e in events[1:]:
        out.append(tuple(sorted((k, pids.index(v) if v in pids else v) for k, v in e.items())))
    return out


@settings(max_examples=150, deadline=None)
@given(lines, lines, seeds)
def test_every_fight_ends_within_40_rounds_with_a_winner_and_no_draw(
    a: list[str], b: list[str], seed: int
) -> None:
    events, state = fight(setup(a, b, seed))
    assert state.ended and state.round <= MAX_ROUNDS
    assert {state.winner, state.loser} == {"a", "b"}
    assert events[-1]["type"] == "MatchEnded" and [e["type"] for e in events].count("MatchEnded") == 1
    assert max(e.get("round", 0) for e in events) <= MAX_ROUNDS
    winner = state.side(state.winner)
    assert state.score == sum(h for h in state.hp[winner] if h > 0) > 0
    if state.reason == "line_fell":
        assert state.living(1 - winner) == 0 and state.tie_break is None
    else:
        assert events[-2]["type"] == "RoundEnded" and state.tie_break is not None


@settings(max_examples=150, deadline=None)
@given(lines, lines, seeds)
def test_replaying_the_events_gives_the_resolved_state(a: list[str], b: list[str], seed: int) -> None:
    events, state = fight(setup(a, b, seed))
    assert fold(events) == state
    assert state_hash(fold(events)) == state_hash(state)
    # step by step, every intermediate state keeps HP within 0..max and the fallen stay fallen
    current: State | None = None
    fallen: set[tuple[int, int]] = set()
    for event in events:
        current = evolve(current, event)
        for side in (0, 1):
            for slot, hp in enumerate(current.hp[side]):
                assert 0 <= hp <= current.fighters[side][slot].hp
                if (side, slot) in fallen:
                    assert hp == 0
                elif hp == 0:
                    fallen.add((side, slot))
    assert current == state


@settings(max_examples=100, deadline=None)
@given(lines, lines, seeds)
def test_the_outcome_is_a_function_of_the_two_lines_and_the_seed(
    a: list[str], b: list[str], seed: int
) -> None:
    events = start(setup(a, b, seed))
    assert start(setup(a, b, seed)) == events
    renamed = start(setup(a, b, seed, match_id="other", pids=("x", "y")))
    assert outcome(renamed) == outcome(events)


@settings(max_examples=100, deadline=None)
@given(lines, lines, seeds)
def test_each_living_card_acts_once_a_round_in_alternating_order(
    a: list[str], b: list[str], seed: int
) -> None:
    events, _ = fight(setup(a, b, seed))
    rounds: dict[int, list[tuple[str, int]]] = {}
    for e in events:
        if e["type"] == "CardHit" and e["hit"] != "back":
            rounds.setdefault(e["round"], []).append((e["player_id"], e["slot"]))
    for acted in rounds.values():
        assert len(acted) == len(set(acted))
        for pid in ("a", "b"):
            slots = [slot for p, slot in acted if p == pid]
            assert slots == sorted(slots)
