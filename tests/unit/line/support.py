"""Helpers for the line tests: fights between hand-made fighters (any line length), event filters."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from libs.games.line import Fighter, State
from libs.games.line.resolution import resolve

A, B = "a", "b"


def card(atk: int, arm: int, hp: int, *roles: str, name: str = "x") -> Fighter:
    return Fighter(name, tuple(roles), atk, arm, hp)


def opening(a: Sequence[Fighter], b: Sequence[Fighter], first: str = A) -> State:
    """The state right after FightStarted for two hand-made lines, no links."""
    return State(
        match_id="m",
        seed=0,
        pids=(A, B),
        first=(A, B).index(first),
        lines=(tuple(f.card_id for f in a), tuple(f.card_id for f in b)),
        fighters=(tuple(a), tuple(b)),
        links=((), ()),
        hp=(tuple(f.hp for f in a), tuple(f.hp for f in b)),
    )


def run(a: Sequence[Fighter], b: Sequence[Fighter], first: str = A) -> tuple[list[dict[str, Any]], State]:
    return resolve(opening(a, b, first))


def of_type(events: list[dict[str, Any]], kind: str, round_: int | None = None) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind and (round_ is None or e.get("round") == round_)]


def hits(
    events: list[dict[str, Any]], round_: int | None = None, by: str | None = None
) -> list[tuple[str, int, int, str, int]]:
    """(attacker's player, slot, target slot, kind, damage) of every CardHit (of one round, by one side)."""
    return [
        (e["player_id"], e["slot"], e["target"], e["hit"], e["damage"])
        for e in of_type(events, "CardHit", round_)
        if by is None or e["player_id"] == by
    ]


def actors(events: list[dict[str, Any]], round_: int) -> list[tuple[str, int]]:
    """Who acted in a round, in order (a nuker's two hits count once)."""
    out: list[tuple[str, int]] = []
    for player, slot, _, kind, _ in hits(events, round_):
        if kind != "back":
            out.append((player, slot))
    return out
