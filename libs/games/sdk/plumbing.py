"""Plumbing the pure event-sourced games of this repository share (the line, the arena): a setup's common
fields checked, `evolve` as a table of appliers, and `fold`. Standard library only."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any, TypeVar

S = TypeVar("S")
Event = Mapping[str, Any]
Applier = Callable[[S, Event], S]


def setup_fields(
    setup: Any, seats: Collection[int], refuse: Callable[[str], Exception]
) -> tuple[str, int, list[Mapping[str, Any]], list[str]]:
    """The match id, seed, players and their ids of a setup: a mapping with a non-empty `match_id`, an int
    `seed` and `players`, a list of mappings with distinct non-empty string `id`s, as many as one of
    `seats`. Raises `refuse(why)` otherwise."""
    if not isinstance(setup, Mapping):
        raise refuse("setup is a mapping")
    match_id, seed, players = setup.get("match_id"), setup.get("seed"), setup.get("players")
    if not isinstance(match_id, str) or not match_id:
        raise refuse("match_id is a non-empty string")
    if type(seed) is not int:
        raise refuse("seed is an int")
    counts = " or ".join(str(n) for n in sorted(seats))
    if not isinstance(players, list | tuple) or len(players) not in seats:
        raise refuse(f"players is a list of {counts} players")
    if not all(isinstance(p, Mapping) for p in players):
        raise refuse("each player is a mapping with an id")
    pids = [p.get("id") for p in players]
    if not all(isinstance(pid, str) and pid for pid in pids) or len(set(pids)) != len(pids):
        raise refuse("player ids are distinct non-empty strings")
    return match_id, seed, list(players), pids


def evolver(
    opening: str,
    begin: Callable[[Event], S],
    appliers: Mapping[str, Applier[S]],
    over: Callable[[S], bool],
) -> Callable[[S | None, Event], S]:
    """An `evolve(state, event)`: the `opening` event type starts a state from nothing (`begin`), every
    other type goes to its applier. The evolve raises ValueError for an event before the opening one, of
    an unknown type, or after the end (`over`)."""

    def evolve(state: S | None, event: Event) -> S:
        kind = event.get("type")
        if kind == opening:
            return begin(event)
        if state is None:
            raise ValueError(f"the first event is {opening}")
        apply = appliers.get(kind)  # type: ignore[arg-type]
        if apply is None:
            raise ValueError(f"unknown event type {kind!r}")
        if over(state):
            raise ValueError("the match is over")
        return apply(state, event)

    return evolve


def fold_with(evolve: Callable[[S | None, Event], S], events: Iterable[Event]) -> S:
    """The state a whole event stream leads to; ValueError for no events (or as `evolve` raises)."""
    state: S | None = None
    for event in events:
        state = evolve(state, event)
    if state is None:
        raise ValueError("no events")
    return state
