"""Helpers for the rules tests: hand-built setups (fixed decks, no shuffle, fixed arcana), a game driver."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from libs.analytics.simulate import random_deck
from libs.games.arcana import decide, evolve, fold, legal_commands, start
from libs.games.arcana.state import PlayerState, State, Unit

P1, P2 = "p1", "p2"
# No stat bonus in rounds 1-2 (chariot only cheapens units of cost >= 4).
SPREAD = ("chariot", "magician", "hermit", "strength", "death", "tower")
FILLER = (
    "hedge_knight",
    "hedge_knight",
    "mercenary",
    "mercenary",
    "wandering_minstrel",
    "wandering_minstrel",
    "squire",
    "squire",
    "pebble_giantling",
    "pebble_giantling",
    "hill_brute",
    "hill_brute",
    "quarry_ogre",
    "quarry_ogre",
    "dune_nomad",
    "dune_nomad",
    "frost_ogre",
    "frost_ogre",
    "iron_juggernaut",
    "iron_juggernaut",
)


def deck(*top: str) -> list[str]:
    """A legal 20-card deck whose first cards (the top, shuffle off) are `top`, filled with vanilla units."""
    cards = list(top)
    for filler in FILLER:
        if len(cards) == 20:
            break
        if cards.count(filler) < 2:
            cards.append(filler)
    assert len(cards) == 20, cards
    return cards


def setup(
    d1: Sequence[str] = (),
    d2: Sequence[str] = (),
    first: str = P1,
    arcana: Sequence[str] = SPREAD,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "match_id": "m1",
        "seed": 7,
        "players": [{"id": P1, "deck": deck(*d1)}, {"id": P2, "deck": deck(*d2)}],
        "first": first,
        "shuffle": False,
        "arcana": list(arcana),
        **extra,
    }


class Game:
    """A match driven command by command, keeping every event (so fold can be compared)."""

    def __init__(self, match_setup: dict[str, Any], keep: bool = True) -> None:
        self.events = start(match_setup)
        self.state = fold(self.events)
        if keep:
            self.do({"type": "mulligan", "player": P1, "cards": []})
            self.do({"type": "mulligan", "player": P2, "cards": []})

    def do(self, command: dict[str, Any]) -> list[dict[str, Any]]:
        events = decide(self.state, command)
        for event in events:
            self.state = evolve(self.state, event)
        self.events += events
        return events

    def player(self, pid: str) -> PlayerState:
        return self.state.players[self.state.index(pid)]

    def card(self, pid: str, card_id: str) -> str:
        """The instance id of a `card_id` in `pid`'s hand (the first one)."""
        return next(i for i in self.player(pid).hand if self.state.cards[i].id == card_id)

    def unit(self, pid: str, card_id: str) -> Unit:
        return next(u for u in self.player(pid).board if u.card.id == card_id)

    def play(self, pid: str, card_id: str, **kw: Any) -> list[dict[str, Any]]:
        return self.do({"type": "play", "player": pid, "card": self.card(pid, card_id), **kw})

    def field(self, pid: str, *card_ids: str) -> None:
        """Play these cards from `pid`'s hand, left to right, with mana to spare."""
        for card_id in card_ids:
            self.patch(pid, mana=10)
            self.play(pid, card_id, position=len(self.player(pid).board))

    def ready(self, p1_units: Sequence[str] = (), p2_units: Sequence[str] = ()) -> None:
        """Field both sides (turns 1 and 2), then P1 is active on turn 3 with ready units."""
        self.field(P1, *p1_units)
        self.end_turn()
        self.field(P2, *p2_units)
        self.end_turn()

    def attack(self, pid: str, attacker: str, target: str) -> list[dict[str, Any]]:
        return self.do({"type": "attack", "player": pid, "attacker": attacker, "target": target})

    def end_turn(self) -> list[dict[str, Any]]:
        return self.do({"type": "end_turn", "player": self.state.pids[self.state.active]})

    def patch(self, pid: str, **changes: Any) -> None:
        """Hand-build a position: change one side (e.g. `mana=10`, `hero=5`)."""
        i = self.state.index(pid)
        p = self.state.players[i]._with(**changes)
        players = (p, self.state.players[1]) if i == 0 else (self.state.players[0], p)
        self.state = self.state._with(players=players)


def types(events: Sequence[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def random_setup(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    return {
        "match_id": f"m{seed}",
        "seed": seed,
        "players": [{"id": P1, "deck": random_deck(rng)}, {"id": P2, "deck": random_deck(rng)}],
    }


def to_move(state: State) -> str:
    """Who has to act: an undecided player during the mulligan, else the active player."""
    if state.phase == "mulligan":
        return next(p.id for p in state.players if not p.mulligan_done)
    return state.pids[state.active]


def random_game(seed: int, pick_seed: int = 0) -> list[dict[str, Any]]:
    """The events of one complete random-vs-random game."""
    rng = random.Random(pick_seed)
    events = start(random_setup(seed))
    state = fold(events)
    while state.phase != "ended":
        command = rng.choice(legal_commands(state, to_move(state)))
        for event in decide(state, command):
            state = evolve(state, event)
            events.append(event)
    return events
