"""The state of a match: small copy-on-write objects that `evolve` replaces and never mutates in place.

`State` and `PlayerState` are copied shallowly (`_with`) when an event changes them; tuples hold the zones, so
an old state stays valid after any number of later events. Equality is structural: a state folded from the
events equals the one evolved step by step.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any, Self

from .arcana import ARCANA, Arcana
from .cards import CATALOG, Card
from .constants import MAX_HEALTH


class Unit:
    """A unit on the board. `attack`/`health` include permanent buffs (never auras); the turn numbers say when
    it was played and when it last attacked, so readiness needs no per-turn bookkeeping."""

    __slots__ = ("attack", "attacked_turn", "card", "health", "id", "max_health", "played_turn", "ward")

    def __init__(
        self,
        id: str,
        card: Card,
        attack: int,
        health: int,
        max_health: int,
        ward: bool,
        played_turn: int,
        attacked_turn: int = 0,
    ) -> None:
        self.id = id
        self.card = card
        self.attack = attack
        self.health = health
        self.max_health = max_health
        self.ward = ward
        self.played_turn = played_turn
        self.attacked_turn = attacked_turn

    def _key(self) -> tuple[Any, ...]:
        return (
            self.id,
            self.card.id,
            self.attack,
            self.health,
            self.max_health,
            self.ward,
            self.played_turn,
            self.attacked_turn,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Unit) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Unit{self._key()!r}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "card_id": self.card.id,
            "attack": self.attack,
            "health": self.health,
            "max_health": self.max_health,
            "ward": self.ward,
            "played_turn": self.played_turn,
            "attacked_turn": self.attacked_turn,
        }


class _Record:
    """Structural equality and a cheap shallow copy for the dict-based state records."""

    def _with(self, **changes: Any) -> Self:
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__)
        copy.__dict__.update(changes)
        return copy

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]


class PlayerState(_Record):
    """One side: hero, mana, zones (deck top first, hand in draw order, board left to right, graveyard)
    and the counters `summary_stats` reports."""

    def __init__(self, id: str, deck: tuple[str, ...]) -> None:
        self.id = id
        self.hero = MAX_HEALTH
        self.mana = 0
        self.max_mana = 0
        self.deck = deck
        self.hand: tuple[str, ...] = ()
        self.board: tuple[Unit, ...] = ()
        self.grave: tuple[str, ...] = ()
        self.timeouts = 0
        self.mulligan_done = False
        # counters for quests and analysts
        self.units_played: Mapping[str, int] = {}
        self.spells_cast = 0
        self.hero_damage = 0
        self.cards_drawn = 0
        self.units_killed = 0
        self.turns = 0

    def __repr__(self) -> str:
        return f"PlayerState({self.to_dict()!r})"

    def to_dict(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["deck"], d["hand"], d["grave"] = list(self.deck), list(self.hand), list(self.grave)
        d["board"] = [u.to_dict() for u in self.board]
        d["units_played"] = dict(sorted(self.units_played.items()))
        return d


class State(_Record):
    """A whole match. `cards` maps every instance id to its card and never changes after MatchStarted.

    `phase` is "mulligan" | "playing" | "ended"; `turn`/`round` are 0 during the mulligan; `active` is the
    index of the player whose turn it is (the first player during the mulligan); `revealed` counts the
    arcana of `spread` turned over so far; `winner` is a player id, "draw" or None; `reason` the
    MatchEnded reason.
    """

    def __init__(
        self,
        match_id: str,
        seed: int,
        players: tuple[PlayerState, PlayerState],
        cards: Mapping[str, Card],
        first: int,
        spread: tuple[str, ...],
        shuffle: bool,
    ) -> None:
        self.match_id = match_id
        self.seed = seed
        self.players = players
        self.pids = (players[0].id, players[1].id)
        self.cards = cards
        self.first = first
        self.spread = spread
        self.shuffle = shuffle
        self.phase = "mulligan"
        self.turn = 0
        self.round = 0
        self.active = first
        self.revealed = 0
        self.winner: str | None = None
        self.reason: str | None = None

    def __repr__(self) -> str:
        return f"State({self.to_dict()!r})"

    def index(self, player_id: str) -> int:
        """0 or 1 for a player of the match; ValueError otherwise."""
        return self.pids.index(player_id)

    @property
    def arcana(self) -> Arcana | None:
        """The arcana above the board now (None before the first is revealed)."""
        return ARCANA[self.spread[self.revealed - 1]] if self.revealed else None

    def to_dict(self) -> dict[str, Any]:
        """Everything, canonical and JSON-able (with the seed and the decks: never send it to a client)."""
        d = {k: v for k, v in self.__dict__.items() if k not in ("players", "cards")}
        d["spread"] = list(self.spread)
        d["pids"] = list(self.pids)
        d["players"] = [p.to_dict() for p in self.players]
        d["cards"] = {iid: card.id for iid, card in sorted(self.cards.items())}
        return d


def state_hash(state: State) -> str:
    """SHA-256 of the canonical state: equal states, and only they, have equal hashes."""
    text = json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def restore(data: Mapping[str, Any]) -> State:
    """The state whose ``to_dict()`` is ``data`` (a snapshot): ``restore(s.to_dict()) == s``."""
    fields = dict(data)
    fields["spread"], fields["pids"] = tuple(data["spread"]), tuple(data["pids"])
    players = tuple(_player(p) for p in data["players"])
    fields["players"] = (players[0], players[1])
    fields["cards"] = {iid: CATALOG[card_id] for iid, card_id in data["cards"].items()}
    state = object.__new__(State)
    state.__dict__.update(fields)
    return state


def _player(data: Mapping[str, Any]) -> PlayerState:
    fields = dict(data)
    for zone in ("deck", "hand", "grave"):
        fields[zone] = tuple(data[zone])
    fields["board"] = tuple(_unit(u) for u in data["board"])
    fields["units_played"] = dict(data["units_played"])
    player = object.__new__(PlayerState)
    player.__dict__.update(fields)
    return player


def _unit(data: Mapping[str, Any]) -> Unit:
    return Unit(
        data["id"],
        CATALOG[data["card_id"]],
        data["attack"],
        data["health"],
        data["max_health"],
        data["ward"],
        data["played_turn"],
        data["attacked_turn"],
    )
