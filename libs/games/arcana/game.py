"""Arcana (``libs.games.arcana``) as a ``Game``: the first game the match service hosts.

An adapter only: the rules stay in ``libs.games.arcana``; they raise the interface's ``IllegalCommand``
themselves, one subclass per kind of refusal (``errors.py``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from libs.games import (
    CommandShape,
    Game,
    IllegalCommand,
    Param,
    Progress,
    Result,
    Setup,
    Wait,
)
from libs.games import arcana as rules
from libs.games.arcana import facts
from libs.games.arcana.bots import greedy_bot
from libs.games.arcana.errors import ERRORS
from libs.games.arcana.offer import OFFER
from libs.games.arcana.state import restore as restore_state
from libs.games.offer import Offer

MULLIGAN_SECONDS = 30
TURN_SECONDS = 60
SPECTATOR = "spectator"  # never a player's id (UUIDs, `bot-<uuid>`): sees only what is public


_ID = Param("id", required=True, high=16, doc="an instance id (`c17`) or `hero`")

COMMANDS: dict[str, CommandShape] = {
    "mulligan": CommandShape(
        {"cards": Param("ids", required=True, high=10, doc="instance ids of your hand to return")},
        "Return `cards` (up to 10 instance ids of the hand) and draw as many.",
    ),
    "play": CommandShape(
        {
            "card": _ID,
            "position": Param("int", low=0, high=6, doc="a unit's place on your board"),
            "target": Param("id", high=16, doc="a targeted spell's target"),
        },
        "Play `card` from the hand: a unit at `position` of the board, a spell on `target`.",
    ),
    "attack": CommandShape(
        {"attacker": _ID, "target": _ID},
        '`attacker` (a unit of yours) attacks `target` (an enemy unit or "hero").',
    ),
    "end_turn": CommandShape(doc="End your turn."),
    "concede": CommandShape(doc="Give up the match."),
}


SETUP_OPTIONS: dict[str, Param] = {
    "first": Param(
        "id", high=64, doc="the player who starts: one of the players' ids (422 `invalid_setup` otherwise)"
    ),
    "shuffle": Param(
        "bool", doc="whether the decks are shuffled (default true; false: dealt in their order)"
    ),
    "arcana": Param(
        "ids",
        low=6,
        high=6,
        choices=tuple(sorted(a.id for a in rules.ARCANA.values())),
        distinct=True,
        doc="the spread in order: 2 early, 2 mid, 2 ending arcana, distinct (422 `invalid_arcana` otherwise)",
    ),
}


class Arcana(Game):
    name: ClassVar[str] = "arcana"
    seats: ClassVar[frozenset[int]] = frozenset({2})
    errors: ClassVar[tuple[type[IllegalCommand], ...]] = ERRORS
    commands: ClassVar[Mapping[str, CommandShape]] = COMMANDS
    starter_deck: ClassVar[tuple[str, ...]] = tuple(rules.STARTER_DECK)
    events: ClassVar[tuple[Any, ...]] = facts.FACTS
    public_events: ClassVar[tuple[Any, ...]] = tuple(facts.PUBLIC.values())
    offer: ClassVar[Offer] = OFFER
    setup_options: ClassVar[Mapping[str, Param]] = SETUP_OPTIONS

    def setup(self, setup: Setup) -> list[dict[str, Any]]:
        """``options``: ``first`` (a player id), ``shuffle``, ``arcana`` (6 ids), ``date`` (the
        day whose ascendant rises when no arcana are given; default ``today``)."""
        spec: dict[str, Any] = {
            "match_id": setup.match_id,
            "seed": setup.seed,
            "players": [{"id": s.id, "deck": list(s.deck)} for s in setup.seats],
            "date": setup.today,
        }
        spec.update({k: v for k, v in setup.options.items() if v is not None})
        return rules.start(spec)

    def decide(self, state: rules.State, command: Mapping[str, Any]) -> list[dict[str, Any]]:
        return rules.decide(state, command)

    def evolve(self, state: rules.State | None, event: Mapping[str, Any]) -> rules.State:
        return rules.evolve(state, event)

    def forfeit(self, player: str, reason: str) -> dict[str, Any]:
        return {"type": "forfeit", "player": player, "reason": reason}

    def view(self, state: rules.State, viewer: str) -> dict[str, Any]:
        return rules.view(state, viewer)

    def visible_event(self, event: Mapping[str, Any], viewer: str | None) -> dict[str, Any] | None:
        return rules.visible_event(event, SPECTATOR if viewer is None else viewer)

    def legal_commands(self, state: rules.State, player: str) -> list[dict[str, Any]]:
        commands = rules.legal_commands(state, player)  # new dicts: dropping the field in place is safe
        for c in commands:
            del c["player"]
        return commands

    def waits(self, state: rules.State) -> list[Wait]:
        """The mulligan: each undecided player, 30 s from the start (an expired one keeps the hand);
        a turn: the active player, 60 s from its start (three expired turns in a row forfeit)."""
        if state.phase == "mulligan":
            return [
                Wait(p.id, f"mulligan:{p.id}", MULLIGAN_SECONDS, {"type": "timeout", "player": p.id})
                for p in state.players
                if not p.mulligan_done
            ]
        if state.phase == "playing":
            active = state.pids[state.active]
            return [Wait(active, f"turn:{state.turn}", TURN_SECONDS, {"type": "timeout", "player": active})]
        return []

    def bot(self, state: rules.State, player: str, rng: random.Random) -> dict[str, Any] | None:
        return greedy_bot(state, player, rng)

    def progress(self, state: rules.State) -> Progress:
        active = state.pids[state.active] if state.phase == "playing" else None
        return Progress(state.phase, state.turn, active)

    def result(self, state: rules.State) -> Result | None:
        if state.phase != "ended":
            return None
        winner = str(state.winner)
        a, b = state.pids
        placements = ((a, b),) if winner not in state.pids else ((winner,), (b if winner == a else a,))
        stats = rules.summary_stats(state)["players"]
        return Result(placements, winner, str(state.reason), state.turn, state.round, stats)

    def seated(self, state: rules.State) -> list[str]:
        return list(state.pids)

    def deck_problems(self, deck: Sequence[Any]) -> list[str]:
        return rules.deck_problems(deck)

    def state_hash(self, state: rules.State) -> str:
        return rules.state_hash(state)

    snapshot_shape: ClassVar[int] = 1  # bump it when ``State``, ``PlayerState`` or ``Unit`` changes

    def snapshot(self, state: rules.State) -> dict[str, Any]:
        return state.to_dict()

    def restore(self, data: Mapping[str, Any]) -> rules.State:
        return restore_state(data)

    def catalog(self) -> dict[str, Any]:
        return {
            "cards": [c.to_dict() for c in rules.CATALOG.values()],
            "arcana": [a.to_dict() for a in rules.ARCANA.values()],
        }


GAME = Arcana()
