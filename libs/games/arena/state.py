"""The state of an arena match: an immutable record that `evolve` replaces, never mutates.

Per-player values are tuples in seat order. Every card instance is in exactly one zone: a hand, the
pile (top first), the discard pile (face up, newest last) or `removed` (out of this round).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from operator import attrgetter
from typing import Any, TypeVar

from .constants import HAND_LIMIT

T = TypeVar("T")
R = TypeVar("R")
_new, _set = object.__new__, object.__setattr__
_COPIERS: dict[type, tuple[tuple[str, ...], attrgetter[Any]]] = {}


def put(values: tuple[T, ...], seat: int, value: T) -> tuple[T, ...]:
    """`values` with `values[seat]` replaced."""
    return (*values[:seat], value, *values[seat + 1 :])


def replace(record: R, /, **changes: Any) -> R:
    """`dataclasses.replace` for this module's frozen records (every field set by `__init__`, no
    `__post_init__`), about 1.7 times cheaper: `evolve` replaces the state at every event, and that was
    the largest part of a random match's cost. The fields are copied into a new instance, then the
    changes; a name that is no field is refused as `dataclasses.replace` refuses it (TypeError)."""
    cls = type(record)
    copier = _COPIERS.get(cls)
    if copier is None:
        names = tuple(cls.__dataclass_fields__)  # type: ignore[attr-defined]
        copier = _COPIERS[cls] = (names, attrgetter(*names))  # (records of two fields or more: a tuple)
    names, values = copier
    new = _new(cls)
    for name, value in zip(names, values(record), strict=True):
        _set(new, name, value)
    for name, value in changes.items():
        if name not in cls.__dataclass_fields__:  # type: ignore[attr-defined]
            raise TypeError(f"{cls.__name__} has no field {name!r}")
        _set(new, name, value)
    return new


@dataclass(frozen=True, slots=True)
class Attack:
    """An attack waiting to be resolved: its number in the match, who, whom, how much, with what."""

    number: int
    attacker: int
    target: int
    damage: int
    source: str  # a card kind or a combo


@dataclass(frozen=True, slots=True)
class Stats:
    """What a player did in the match (the result's per-player stats)."""

    turns: int = 0
    cards_played: int = 0
    combos: int = 0
    reactions: int = 0
    damage_dealt: int = 0
    cards_stolen: int = 0

    def bump(self, **by: int) -> Stats:
        return replace(self, **{k: getattr(self, k) + v for k, v in by.items()})


@dataclass(frozen=True, slots=True)
class State:
    """A whole match. `phase`: action, reaction, discard or ended; `active`: the seat whose turn it is;
    `start_hand`: cards it held when the turn started; `pending`: attacks still to resolve, the first
    one's window open in the reaction phase; `bonus`: a combo's bonus to take once its attacks resolve;
    `wards`: per seat, the standing protections (Ward values) until that player's next turn;
    `randoms`: random draws made so far (each takes its own stream of the seed)."""

    match_id: str
    seed: int
    pids: tuple[str, ...]
    first: int
    round: int = 0
    round_first: int = 0
    wins: tuple[int, ...] = ()
    in_match: tuple[bool, ...] = ()
    in_round: tuple[bool, ...] = ()
    life: tuple[int, ...] = ()
    hands: tuple[tuple[str, ...], ...] = ()
    pile: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    wards: tuple[frozenset[str], ...] = ()
    active: int = 0
    turn: int = 0
    phase: str = "action"
    start_hand: int = 0
    swapped: bool = False
    pending: tuple[Attack, ...] = ()
    attacks: int = 0
    bonus: str | None = None
    randoms: int = 0
    ended: bool = False
    winner: str | None = None
    reason: str | None = None
    placements: tuple[tuple[str, ...], ...] = ()
    left: tuple[str, ...] = ()  # players who left the match, in order
    stats: tuple[Stats, ...] = field(default=())

    def seat(self, player_id: str) -> int:
        """The seat of a player of the match; ValueError otherwise."""
        return self.pids.index(player_id)

    def standing(self) -> list[int]:
        """Seats still in the round, in seat order."""
        return [s for s, alive in enumerate(self.in_round) if alive]

    def opponents(self, seat: int) -> list[int]:
        """The other seats still in the round, in seat order from the one after `seat`."""
        n = len(self.pids)
        return [t for t in ((seat + k) % n for k in range(1, n)) if self.in_round[t]]

    def excess(self, seat: int) -> int:
        """How many cards over the hand limit `seat` holds."""
        return max(0, len(self.hands[seat]) - HAND_LIMIT)

    def to_dict(self) -> dict[str, Any]:
        """Everything, canonical and JSON-able (with the seed and every hand: never send it to a client)."""
        d = {k: getattr(self, k) for k in self.__dataclass_fields__}
        d["wards"] = [sorted(w) for w in self.wards]
        d["pending"] = [asdict(a) for a in self.pending]
        d["stats"] = [asdict(s) for s in self.stats]
        return json.loads(json.dumps(d))


def state_hash(state: State) -> str:
    """SHA-256 of the canonical state: equal states, and only they, have equal hashes.

    The text is that of `to_dict()` dumped with sorted keys, written straight from the fields: the
    JSON round trip of `to_dict` (tuples to lists) changes nothing in the text, and skipping it and
    `asdict` makes the hash about three times cheaper (the conformance check hashes every step)."""
    d = {k: getattr(state, k) for k in state.__dataclass_fields__}
    d["wards"] = [sorted(w) for w in state.wards]
    d["pending"] = [_fields(a) for a in state.pending]
    d["stats"] = [_fields(s) for s in state.stats]
    text = json.dumps(d, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _fields(record: Attack | Stats) -> dict[str, Any]:
    """A flat record's fields (what `asdict` gives for these, without its deep copy)."""
    return {k: getattr(record, k) for k in record.__dataclass_fields__}
