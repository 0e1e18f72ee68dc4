"""Helpers for the arena tests: hand-made positions (every card still in exactly one zone) and a driver."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from libs.games.arena import DECK, State, decide, evolve, fold, start

A, B, C, D = "a", "b", "c", "d"


def position(
    hands: Mapping[str, Sequence[str]],
    players: Sequence[str] = (A, B),
    active: str = A,
    pile: Sequence[str] | None = None,
    discard: Sequence[str] = (),
    removed: Sequence[str] = (),
    life: Mapping[str, int] | None = None,
    wins: Mapping[str, int] | None = None,
    **changes: Any,
) -> State:
    """A match in `active`'s action phase with these hands; the pile holds every other card (in deck
    order) unless given."""
    base = fold(start({"match_id": "m", "seed": 5, "players": [{"id": p} for p in players], "first": active}))
    used = [c for h in hands.values() for c in h] + list(discard) + list(removed)
    rest = [c for c in DECK if c not in used] if pile is None else list(pile)
    assert sorted(used + rest) == sorted(DECK), "every card in exactly one zone"
    seat = list(players).index(active)
    changes.setdefault("start_hand", len(hands.get(active, ())))
    return replace(
        base,
        hands=tuple(tuple(hands.get(p, ())) for p in players),
        pile=tuple(rest),
        discard=tuple(discard),
        removed=tuple(removed),
        life=tuple((life or {}).get(p, 9) for p in players),
        wins=tuple((wins or {}).get(p, 0) for p in players),
        active=seat,
        phase="action",
        **changes,
    )


def play(state: State, *commands: Mapping[str, Any]) -> tuple[State, list[dict[str, Any]]]:
    """`state` after `commands` in order, and all the events they caused."""
    events: list[dict[str, Any]] = []
    for command in commands:
        new = decide(state, command)
        events += new
        for e in new:
            state = evolve(state, e)
    return state, events


def types(events: Iterable[Mapping[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def of(events: Iterable[Mapping[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [dict(e) for e in events if e["type"] == kind]


def zones(state: State) -> list[str]:
    """Every card instance in every zone (conservation: a permutation of the deck)."""
    return [c for h in state.hands for c in h] + list(state.pile) + list(state.discard) + list(state.removed)
