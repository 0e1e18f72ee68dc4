"""The line as a `libs.games.Game`: an adapter only, the rules stay in this package.

The whole fight is resolved by `setup` (up to its MatchEnded), so nothing waits, no command is legal and
the bot has no move; a bot's line comes from `bots.pick_line` over the welcome set (`bot_deck`; the
interface's `starter_deck` is the welcome line). The rules raise the interface's `IllegalCommand`
themselves, one subclass per kind of refusal (`errors.py`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from libs.games import (
    CommandShape,
    Game,
    IllegalCommand,
    Offer,
    Progress,
    Result,
    Setup,
    Wait,
)

from . import catalog, facts, views
from .appliers import evolve
from .bots import pick_line
from .deciders import decide
from .errors import ERRORS, InvalidLine
from .offer import OFFER
from .setup import start
from .state import State, state_hash


class Line(Game):
    name: ClassVar[str] = "line"
    seats: ClassVar[frozenset[int]] = frozenset({2})
    state_class: ClassVar[type | None] = State  # snapshots by its type hints (``libs.codec``)
    snapshot_shape: ClassVar[int] = 2  # bump it when ``State`` (or a class it holds) changes
    errors: ClassVar[tuple[type[IllegalCommand], ...]] = ERRORS
    commands: ClassVar[Mapping[str, CommandShape]] = {}
    starter_deck: ClassVar[tuple[str, ...]] = catalog.WELCOME_LINE
    offer: ClassVar[Offer] = OFFER
    events: ClassVar[tuple[Any, ...]] = facts.FACTS
    public_events: ClassVar[tuple[Any, ...]] = tuple(facts.PUBLIC.values())

    def setup(self, setup: Setup) -> list[dict[str, Any]]:
        """The whole fight. `options`: `first` (a player id), `rules` (a rules version; default the
        current). A bad line raises `InvalidLine` with every
        problem per player."""
        problems = {s.id: found for s in setup.seats if (found := catalog.line_problems(s.deck))}
        if problems:
            raise InvalidLine("; ".join(f"{p}: {', '.join(v)}" for p, v in problems.items()), problems)
        spec = {
            "match_id": setup.match_id,
            "seed": setup.seed,
            "players": [{"id": s.id, "deck": list(s.deck)} for s in setup.seats],
            **{k: v for k, v in setup.options.items() if v is not None},
        }
        return start(spec)

    def decide(self, state: State, command: Mapping[str, Any]) -> list[dict[str, Any]]:
        return decide(state, command)

    def evolve(self, state: State | None, event: Mapping[str, Any]) -> State:
        return evolve(state, event)

    def forfeit(self, player: str, reason: str) -> dict[str, Any]:
        return {"type": "forfeit", "player": player, "reason": reason}

    def view(self, state: State, viewer: str) -> dict[str, Any]:
        return views.view(state, viewer)

    def visible_event(self, event: Mapping[str, Any], viewer: str | None) -> dict[str, Any] | None:
        return views.visible_event(event, viewer)

    def legal_commands(self, state: State, player: str) -> list[dict[str, Any]]:
        return []

    def waits(self, state: State) -> list[Wait]:
        return []

    def bot(self, state: State, player: str, rng: random.Random) -> dict[str, Any] | None:
        return None

    def bot_deck(self, rng: random.Random) -> tuple[str, ...]:
        """A line of the welcome set (what a new player owns), chosen by `bots.pick_line`."""
        return pick_line(catalog.WELCOME_SET, rng)

    def progress(self, state: State) -> Progress:
        return Progress("ended" if state.ended else "fighting", state.round, None)

    def result(self, state: State) -> Result | None:
        """Placements winner then loser; stats per player: `views.result`'s, with `turns` the rounds
        fought (every living card acts each round)."""
        if not state.ended or state.winner is None or state.loser is None:
            return None
        summary = views.result(state)
        stats = {pid: {**s, "turns": state.round} for pid, s in summary["players"].items()}
        return Result(
            ((state.winner,), (state.loser,)),
            state.winner,
            str(state.reason),
            state.round,
            state.round,
            stats,
        )

    def seated(self, state: State) -> list[str]:
        return list(state.pids)

    def deck_problems(self, deck: Sequence[Any]) -> list[str]:
        return catalog.line_problems(deck)

    def state_hash(self, state: State) -> str:
        return state_hash(state)

    def catalog(self) -> dict[str, Any]:
        return {
            "cards": [c.to_dict() for c in catalog.CATALOG.values()],
            "welcome_set": list(catalog.WELCOME_SET),
        }


GAME = Line()
