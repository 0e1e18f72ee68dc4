"""The state of a line fight: an immutable record that `evolve` replaces, never mutates.

Sides are indexed 0 and 1 in the order of the setup's players; slot 0 of a side is its front (left).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .links import ActiveLink, Fighter

Pair = tuple[int, int]


@dataclass(frozen=True, slots=True)
class State:
    """A whole fight. `hp` is each side's current HP per slot (0: fallen); `round` the round under way
    or last played; `begins` the side that began it. Once `ended`: `winner`/`loser` (player ids),
    `reason` (EndReason), `tie_break` (TieBreak or None) and `score` (the winner's living HP).
    `damage`, `kills`, `healed`, `hits` count per side what its cards dealt, felled, healed and hit."""

    match_id: str
    seed: int
    pids: tuple[str, str]
    first: int
    lines: tuple[tuple[str, ...], tuple[str, ...]]
    fighters: tuple[tuple[Fighter, ...], tuple[Fighter, ...]]
    links: tuple[tuple[ActiveLink, ...], tuple[ActiveLink, ...]]
    hp: tuple[tuple[int, ...], tuple[int, ...]]
    round: int = 0
    begins: int = 0
    ended: bool = False
    winner: str | None = None
    loser: str | None = None
    reason: str | None = None
    tie_break: str | None = None
    score: int = 0
    damage: Pair = (0, 0)
    kills: Pair = (0, 0)
    healed: Pair = (0, 0)
    hits: Pair = (0, 0)
    record: tuple[Mapping[str, Any], ...] = field(default=(), repr=False)
    """Every event of the fight so far, FightStarted first: the combat log is read from it."""
    rules: int = 1
    """The rules version the fight is played under (FightStarted's `rules`; absent there: 1)."""

    def side(self, player_id: str) -> int:
        """0 or 1 for a player of the fight; ValueError otherwise."""
        return self.pids.index(player_id)

    def living(self, side: int) -> int:
        return sum(1 for h in self.hp[side] if h > 0)

    def to_dict(self) -> dict[str, Any]:
        """Everything, canonical and JSON-able (with the seed: never send it to a client)."""
        return {
            "match_id": self.match_id,
            "seed": self.seed,
            "pids": list(self.pids),
            "first": self.first,
            "lines": [list(line) for line in self.lines],
            "fighters": [[f.to_dict() for f in side] for side in self.fighters],
            "links": [[link.to_dict() for link in side] for side in self.links],
            "hp": [list(h) for h in self.hp],
            "round": self.round,
            "begins": self.begins,
            "ended": self.ended,
            "winner": self.winner,
            "loser": self.loser,
            "reason": self.reason,
            "tie_break": self.tie_break,
            "score": self.score,
            "damage": list(self.damage),
            "kills": list(self.kills),
            "healed": list(self.healed),
            "hits": list(self.hits),
            "record": [dict(e) for e in self.record],
            "rules": self.rules,
        }


def state_hash(state: State) -> str:
    """SHA-256 of the canonical state: equal states, and only they, have equal hashes.

    The record's events are hashed in their schema version 1 shape (the player named ``player``,
    as version 2's ``player_id``): a fight stored before the rename replays, upcast, to the hash it
    stored, and one stored since has the hash it would have had then. A fight of rules version 1 (every
    fight recorded before versions) hashes without the version, as it did then."""
    canonical = state.to_dict()
    if canonical["rules"] == 1:
        del canonical["rules"]
    canonical["record"] = [_as_version_1(e) for e in canonical["record"]]
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _as_version_1(event: Mapping[str, Any]) -> dict[str, Any]:
    return {("player" if k == "player_id" else k): v for k, v in event.items()}
