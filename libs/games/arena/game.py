"""Arcane Arena as a `libs.games.Game`: an adapter only, the rules stay in this package.

The rules raise the interface's `IllegalCommand` themselves, one subclass per kind of refusal
(`errors.py`). Seats: 2 to 4; decks:
none (the 16 cards are shared), so any deck is accepted and ignored. Waits: the reaction window (10 s,
then a pass) or the active player's action and discard phase (60 s each); a player who forfeits is out
of the match and the others play on.
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
    Param,
    Progress,
    Result,
    Setup,
    Wait,
)

from . import facts, views
from .appliers import evolve
from .cards import COMBOS, KINDS
from .constants import SEATS
from .deciders import decide
from .errors import ERRORS
from .legal import legal_commands
from .offer import OFFER
from .setup import start
from .state import State, state_hash
from .tactics import tactical_bot

_CARD = Param("id", required=True, high=24, doc="a card instance id (`fireball-2`)")
_TARGET = Param("id", high=64, doc="an opponent's player id")
COMMANDS: dict[str, CommandShape] = {
    "draw": CommandShape(doc="The action: draw a card (not when the turn started with 3 cards)."),
    "play": CommandShape({"card": _CARD, "target": _TARGET}, "The action: play a card (never a defence)."),
    "combo": CommandShape(
        {
            "combo": Param("id", required=True, high=24, doc=f"one of {', '.join(COMBOS)}"),
            "bonus": Param("id", required=True, high=8, doc='"draw" or "life"'),
            "target": _TARGET,
            "card": Param("id", high=24, doc="desecration: the card to take from the discard pile"),
        },
        "The action: two cards of the hand as one combo, then the bonus.",
    ),
    "react": CommandShape({"card": _CARD}, "Answer the attack on you with a defence card."),
    "pass": CommandShape(doc="Let the attack on you through."),
    "swap": CommandShape({"card": _CARD}, "The discard phase, once: discard a card to draw one."),
    "end_turn": CommandShape(
        {"discard": Param("ids", low=0, high=4, doc="exactly the cards over 3")}, "End the turn."
    ),
    "concede": CommandShape(doc="Leave the match; the others play on."),
}


class Arena(Game):
    name: ClassVar[str] = "arena"
    seats: ClassVar[frozenset[int]] = frozenset(SEATS)
    state_class: ClassVar[type | None] = State  # snapshots by its type hints (``libs.codec``)
    snapshot_shape: ClassVar[int] = 1  # bump it when ``State`` (or a class it holds) changes
    errors: ClassVar[tuple[type[IllegalCommand], ...]] = ERRORS
    commands: ClassVar[Mapping[str, CommandShape]] = COMMANDS
    starter_deck: ClassVar[tuple[str, ...]] = ()
    offer: ClassVar[Offer] = OFFER
    events: ClassVar[tuple[Any, ...]] = facts.FACTS
    public_events: ClassVar[tuple[Any, ...]] = tuple(facts.PUBLIC.values())

    def setup(self, setup: Setup) -> list[dict[str, Any]]:
        """`options`: `first` (a player id)."""
        spec = {
            "match_id": setup.match_id,
            "seed": setup.seed,
            "players": [{"id": s.id} for s in setup.seats],
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
        return [{k: v for k, v in c.items() if k != "player"} for c in legal_commands(state, player)]

    def waits(self, state: State) -> list[Wait]:
        return [Wait(w.player, w.key, w.seconds, w.timeout) for w in views.waits(state)]

    def bot(self, state: State, player: str, rng: random.Random) -> dict[str, Any] | None:
        return tactical_bot(state, player, rng)

    def progress(self, state: State) -> Progress:
        awaited = views.waits(state)
        return Progress(state.phase, state.turn, awaited[0].player if awaited else None)

    def result(self, state: State) -> Result | None:
        """Stats per player: `views.result`'s counters (`turns`: turns that player started)."""
        ended = views.result(state)
        if ended is None:
            return None
        placements = tuple(tuple(group) for group in ended["placements"])
        return Result(
            placements, str(state.winner), str(state.reason), state.turn, state.round, ended["players"]
        )

    def playing(self, state: State) -> list[str]:
        return [] if state.ended else [p for s, p in enumerate(state.pids) if state.in_match[s]]

    def seated(self, state: State) -> list[str]:
        return list(state.pids)

    def deck_problems(self, deck: Sequence[Any]) -> list[str]:
        return []  # no decks: any deck is ignored

    def state_hash(self, state: State) -> str:
        return state_hash(state)

    def catalog(self) -> dict[str, Any]:
        return {
            "cards": [
                {
                    "kind": k.kind,
                    "family": k.family,
                    "copies": k.copies,
                    "damage": k.damage,
                    "block": k.block,
                    "heal": k.heal,
                }
                for k in KINDS.values()
            ],
            "combos": {name: list(cards) for name, cards in COMBOS.items()},
        }


GAME = Arena()
