"""The 16 cards of the shared deck and the five combos, as data the deciders read."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from .constants import Combo, Family, Kind


@dataclass(frozen=True, slots=True)
class CardKind:
    """What a card does: its family, the damage it deals (attacks), blocks (defences) or heals."""

    kind: str
    family: str
    copies: int
    damage: int = 0
    block: int = 0
    heal: int = 0


KINDS: Final[Mapping[str, CardKind]] = {
    k.kind: k
    for k in (
        CardKind(Kind.FIREBALL.value, Family.ATTACK.value, 4, damage=1),
        CardKind(Kind.SHIELD.value, Family.DEFENCE.value, 2, block=1),
        CardKind(Kind.HEALING_LIGHT.value, Family.SUPPORT.value, 3, heal=1),
        CardKind(Kind.EXPLOSION.value, Family.ATTACK.value, 1, damage=2),
        CardKind(Kind.LIGHTNING.value, Family.ATTACK.value, 1, damage=1),
        CardKind(Kind.MIRROR.value, Family.DEFENCE.value, 1),
        CardKind(Kind.ARCANE_BARRIER.value, Family.DEFENCE.value, 1, block=2),
        CardKind(Kind.HAND_OF_SHADOWS.value, Family.SUPPORT.value, 1),
        CardKind(Kind.SHADOW_VEIL.value, Family.SUPPORT.value, 1),
        CardKind(Kind.MANA_FOCUS.value, Family.SUPPORT.value, 1),
    )
}

DECK: Final[tuple[str, ...]] = tuple(f"{k.kind}-{n}" for k in KINDS.values() for n in range(1, k.copies + 1))
"""The 16 instance ids (`fireball-1` ... `mana_focus-1`): a card's id names its kind."""


def kind_of(card: str) -> str:
    """The kind of an instance id (`fireball-3` -> `fireball`)."""
    return card.rsplit("-", 1)[0]


DEFENCES: Final = frozenset(k for k, c in KINDS.items() if c.family == Family.DEFENCE)
TARGETED: Final = frozenset({Kind.FIREBALL.value, Kind.EXPLOSION.value, Kind.HAND_OF_SHADOWS.value})

COMBOS: Final[Mapping[str, tuple[str, str]]] = {
    Combo.FLAME_BURST.value: (Kind.FIREBALL.value, Kind.EXPLOSION.value),
    Combo.MAGIC_FORTRESS.value: (Kind.SHIELD.value, Kind.ARCANE_BARRIER.value),
    Combo.SUPREME_COUNTER.value: (Kind.MIRROR.value, Kind.SHADOW_VEIL.value),
    Combo.DESECRATION.value: (Kind.HAND_OF_SHADOWS.value, Kind.MANA_FOCUS.value),
    Combo.MYSTIC_REGENERATION.value: (Kind.HEALING_LIGHT.value, Kind.HEALING_LIGHT.value),
}
FLAME_BURST_DAMAGE: Final = 3
MYSTIC_REGENERATION_HEAL: Final = 3
FORTRESS_HEAL: Final = 1
EXPLOSION_RECOIL: Final = 1
COUNTER_EXTRA: Final = 1  # supreme counter: the attacker takes the damage +1, the owner 1 less


def combo_cards(combo: str, hand: tuple[str, ...]) -> tuple[str, str] | None:
    """The two instances of `hand` a combo uses (the first of each kind, in hand order), or None."""
    first, second = COMBOS[combo]
    a = next((c for c in hand if kind_of(c) == first), None)
    b = next((c for c in hand if kind_of(c) == second and c != a), None)
    return (a, b) if a is not None and b is not None else None


assert len(DECK) == 16 and Counter(kind_of(c) for c in DECK) == {k: c.copies for k, c in KINDS.items()}
