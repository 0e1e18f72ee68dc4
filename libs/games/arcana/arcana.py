"""The 22 arcana (data/arcana.json): 10 dealt with effects, the spread of a match, the daily ascendant."""

from __future__ import annotations

import datetime
import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from libs.games.sdk.datafile import load_table

from .constants import ENDING_FIRST_ROUND, LAST_ROUND, MAX_HEALTH, ROUNDS_PER_ARCANA, SPREAD, CardType, Tribe
from .errors import InvalidArcana

ARCANA_FILE: Final = Path(__file__).with_name("data") / "arcana.json"
MAJOR_ARCANA: Final = 22
DEALT: Final = 10


@dataclass(frozen=True, slots=True)
class Arcana:
    """One major arcana. `phase` and `effect` are None for the 12 never dealt.

    Effects (a dict with `kind`):
    - ``stat_bonus``: ``attack``, ``health``, ``tribe`` (None = every unit): written into units as they land;
    - ``cost_change``: ``card_type`` ("unit" | "spell"), ``amount``, ``min_cost`` (printed cost at least):
      applies while the arcana holds, never below 0;
    - ``drain``: ``base``, ``step``: at the start of round r both heroes lose ``base + step * (r - 9)``.
    """

    id: str
    number: int
    name: str
    phase: str | None
    effect: Mapping[str, Any] | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "number": self.number,
            "name": self.name,
            "phase": self.phase,
            "effect": None if self.effect is None else dict(self.effect),
        }


def drain_amount(arcana: Arcana, round_: int) -> int:
    """What a drain arcana takes from both heroes at the start of `round_` (0 for other arcana)."""
    if arcana.effect is None or arcana.effect["kind"] != "drain":
        return 0
    return int(arcana.effect["base"]) + int(arcana.effect["step"]) * max(0, round_ - ENDING_FIRST_ROUND)


def validate_arcana(rows: Any) -> list[str]:
    """Every problem with an arcana file's content; empty when valid. Also proves `LAST_ROUND`."""
    if not isinstance(rows, list) or len(rows) != MAJOR_ARCANA:
        return [f"expected a list of {MAJOR_ARCANA} arcana"]
    problems: list[str] = []
    if [r.get("number") for r in rows] != list(range(MAJOR_ARCANA)):
        problems.append("numbers must run 0..21 in order")
    if len({r.get("id") for r in rows}) != MAJOR_ARCANA:
        problems.append("ids must be distinct")
    dealt = [r for r in rows if r.get("phase") is not None]
    if len(dealt) != DEALT:
        problems.append(f"{len(dealt)} dealt arcana, expected {DEALT}")
    for phase in ("early", "mid", "ending"):
        # 2 draws of the phase, one of them possibly the ascendant: at least 3 to choose from.
        if sum(r.get("phase") == phase for r in rows) < 3:
            problems.append(f"fewer than 3 {phase} arcana")
    for r in rows:
        problems += [f"{r.get('id')}: {p}" for p in _arcana_problems(r)]
    return problems


def _arcana_problems(r: Mapping[str, Any]) -> list[str]:
    phase, effect = r.get("phase"), r.get("effect")
    if phase is None:
        return [] if effect is None else ["an arcana never dealt has no effect"]
    if phase not in ("early", "mid", "ending") or not isinstance(effect, dict):
        return ["a dealt arcana has a phase (early | mid | ending) and an effect"]
    kind = effect.get("kind")
    if (phase == "ending") != (kind == "drain"):
        return ["ending arcana, and only they, drain"]
    if kind == "drain":
        base, step = effect.get("base"), effect.get("step")
        if type(base) is not int or type(step) is not int or base < 1 or step < 1:
            return ["a drain has int base >= 1 and step >= 1"]
        if base + step * (LAST_ROUND - ENDING_FIRST_ROUND) < MAX_HEALTH:
            return [f"drain does not reach {MAX_HEALTH} by round {LAST_ROUND}"]
    elif kind == "stat_bonus":
        if effect.get("tribe") not in (None, *Tribe) or type(effect.get("attack")) is not int:
            return ["stat_bonus has attack, health and tribe (or None)"]
        if type(effect.get("health")) is not int or effect["attack"] < 0 or effect["health"] < 0:
            return ["stat bonuses are ints >= 0"]
    elif kind == "cost_change":
        if effect.get("card_type") not in set(CardType) or type(effect.get("amount")) is not int:
            return ["cost_change has card_type and int amount"]
        if type(effect.get("min_cost")) is not int:
            return ["cost_change has an int min_cost"]
    else:
        return [f"unknown effect kind {kind!r}"]
    return []


def load_arcana(path: Path = ARCANA_FILE) -> dict[str, Arcana]:
    """Read and validate an arcana file; raises ValueError listing every problem."""
    return load_table(path, "arcana file", validate_arcana, Arcana)


ARCANA: Final[Mapping[str, Arcana]] = load_arcana()
DEALT_IDS: Final[tuple[str, ...]] = tuple(a.id for a in ARCANA.values() if a.phase is not None)


def daily_arcana(date_iso: str) -> str:
    """The ascendant arcana of a UTC date ("YYYY-MM-DD"): SHA-256 of the date, modulo the 10 dealt arcana.

    Raises ValueError for a string that is not an ISO date.
    """
    day = datetime.date.fromisoformat(date_iso).isoformat()
    digest = hashlib.sha256(day.encode()).digest()
    return DEALT_IDS[int.from_bytes(digest, "big") % len(DEALT_IDS)]


def draw_spread(rng: random.Random, ascendant: str | None = None) -> tuple[str, ...]:
    """Six distinct dealt arcana, 2 early, 2 mid, 2 ending; the ascendant replaces one draw of its phase."""
    spread: list[str] = []
    for phase in ("early", "mid", "ending"):
        pool = [a for a in DEALT_IDS if ARCANA[a].phase == phase]
        pair = rng.sample(pool, 2)
        slot = rng.randrange(2)
        if ascendant is not None and ARCANA[ascendant].phase == phase and ascendant not in pair:
            pair[slot] = ascendant
        spread += pair
    return tuple(spread)


def check_spread(spread: Any) -> tuple[str, ...]:
    """A setup's explicit spread, checked: 6 distinct dealt ids, 2 early, 2 mid, 2 ending, in that order."""
    if not isinstance(spread, list | tuple) or len(spread) != len(SPREAD):
        raise InvalidArcana("arcana is a list of 6 arcana ids")
    for a, phase in zip(spread, SPREAD, strict=True):
        if not isinstance(a, str) or a not in ARCANA or ARCANA[a].phase != phase:
            raise InvalidArcana(f"{a!r} is not a dealt {phase} arcana")
    if len(set(spread)) != len(spread):
        raise InvalidArcana("the arcana of a spread are distinct")
    return tuple(spread)


def spread_index(round_: int) -> int:
    """Which of the 6 arcana holds in `round_` (round 0, the mulligan, shows the first)."""
    return min(max(round_ - 1, 0) // ROUNDS_PER_ARCANA, len(SPREAD) - 1)


def rounds_left(round_: int) -> int | None:
    """Rounds the current arcana still holds, this one included; None for the last, which never rotates."""
    index = spread_index(round_)
    if index == len(SPREAD) - 1:
        return None
    return (index + 1) * ROUNDS_PER_ARCANA - max(round_, 1) + 1


def last_round(spread: Sequence[str]) -> int:
    """The round by whose start the spread's drains are sure to end a match (always <= LAST_ROUND)."""
    r = ENDING_FIRST_ROUND
    while drain_amount(ARCANA[spread[spread_index(r)]], r) < MAX_HEALTH:
        r += 1
    return r
