"""Derived numbers: a unit's attack with auras, a card's current cost, arcana bonuses."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card
from .state import State, Unit

BEAST, BEAST_AURA, ADJACENT_AURA = "beast", "beast_aura", "adjacent_aura"
EARLY_ARCANA, PER_BEAST, RALLY = "early_arcana", "per_beast", "rally"


def is_early(state: State) -> bool:
    """Is an early arcana above the board (the first arcana is shown during the mulligan)?"""
    arcana = state.arcana
    return arcana is not None and arcana.phase == "early"


def attacks(board: Sequence[Unit], early: bool) -> list[int]:
    """The current attack of each unit of one side, left to right: its own attack plus the auras of its side.

    Auras are read from the board as it stands: `beast_aura` (+1 to other Beasts), `adjacent_aura` (+1 to its
    neighbours), `early_arcana` (+1 to itself under an early arcana), `per_beast` (+1 per other Beast),
    `rally` (+1 per neighbour of its own tribe).
    """
    if not any(u.card.ability for u in board):
        return [u.attack for u in board]
    cards = [u.card for u in board]
    last = len(cards) - 1
    beasts = sum(c.tribe == BEAST for c in cards)
    beast_auras = sum(c.ability == BEAST_AURA for c in cards)
    result = []
    for i, u in enumerate(board):
        c = cards[i]
        a = u.attack
        if c.tribe == BEAST:
            a += beast_auras - (c.ability == BEAST_AURA)
        left = cards[i - 1] if i > 0 else None
        right = cards[i + 1] if i < last else None
        a += (left is not None and left.ability == ADJACENT_AURA) + (
            right is not None and right.ability == ADJACENT_AURA
        )
        ability = c.ability
        if ability == EARLY_ARCANA:
            a += early
        elif ability == PER_BEAST:
            a += beasts - (c.tribe == BEAST)
        elif ability == RALLY and c.tribe is not None:
            a += (left is not None and left.tribe == c.tribe) + (right is not None and right.tribe == c.tribe)
        result.append(a)
    return result


def cost_of(state: State, card: Card) -> int:
    """What `card` costs now: its printed cost changed by a `cost_change` arcana that holds, never below 0."""
    arcana = state.arcana
    effect = arcana.effect if arcana is not None else None
    if effect is None or effect["kind"] != "cost_change":
        return card.cost
    if card.type != effect["card_type"] or card.cost < effect["min_cost"]:
        return card.cost
    return max(0, card.cost + effect["amount"])


def summon_stats(state: State, card: Card) -> tuple[int, int]:
    """A unit's attack and health as it lands: printed stats plus a `stat_bonus` arcana that holds."""
    assert card.attack is not None and card.health is not None
    arcana = state.arcana
    effect = arcana.effect if arcana is not None else None
    if effect is None or effect["kind"] != "stat_bonus" or effect["tribe"] not in (None, card.tribe):
        return card.attack, card.health
    return card.attack + effect["attack"], card.health + effect["health"]
