"""The events several deciders emit: a card drawn, the match ended, an arcana revealed, a hero healed,
and damage to units (where Ward absorbs one instance: written once here for attacks and spells)."""

from __future__ import annotations

from .arcana import ARCANA
from .constants import MAX_HEALTH
from .names import (
    ARCANA_REVEALED,
    CARD_DRAWN,
    DAMAGE_DEALT,
    HERO_HEALED,
    MATCH_ENDED,
    UNIT_DIED,
    WARD_BROKEN,
    Event,
)
from .state import PlayerState, Unit


def drawn(pid: str, iid: str, card_id: str) -> Event:
    return {"type": CARD_DRAWN, "player_id": pid, "card": iid, "card_id": card_id}


def ended(winner: str, reason: str) -> Event:
    return {"type": MATCH_ENDED, "winner": winner, "reason": reason}


def revealed(spread: tuple[str, ...], index: int, round_: int) -> Event:
    """The ArcanaRevealed of the spread's arcana at `index`, in `round_`."""
    arcana = spread[index]
    return {
        "type": ARCANA_REVEALED,
        "arcana": arcana,
        "phase": ARCANA[arcana].phase,
        "index": index,
        "round": round_,
    }


def heal(player: PlayerState, amount: int) -> list[Event]:
    """`player`'s hero healed by up to `amount` (never above MAX_HEALTH; no event when nothing heals)."""
    healed = min(amount, MAX_HEALTH - player.hero)
    return [{"type": HERO_HEALED, "player_id": player.id, "amount": healed}] if healed > 0 else []


def strike(owner: str, unit: Unit, amount: int, source: str) -> tuple[Event, int]:
    """One instance of `amount` damage from `source` to `owner`'s `unit`: Ward absorbs it (WardBroken, 0
    dealt), else DamageDealt (`amount` dealt). Returns the event and the damage dealt."""
    if unit.ward:
        return {"type": WARD_BROKEN, "player_id": owner, "unit": unit.id}, 0
    return {
        "type": DAMAGE_DEALT,
        "player_id": owner,
        "target": unit.id,
        "amount": amount,
        "source": source,
    }, amount


def died_of(owner: str, unit: Unit, dealt: int) -> list[Event]:
    """`owner`'s `unit` dies when `dealt` damage reaches its health (none dealt: it lives)."""
    return (
        [{"type": UNIT_DIED, "player_id": owner, "unit": unit.id}] if dealt and unit.health <= dealt else []
    )


def damage_units(hits: list[tuple[str, Unit, int]], source: str) -> list[Event]:
    """Damage dealt at once to several units (`(owner, unit, amount)`; Ward prevents one instance), then
    the deaths."""
    events: list[Event] = []
    dead: list[Event] = []
    for owner, unit, amount in hits:
        hit, dealt = strike(owner, unit, amount, source)
        events.append(hit)
        dead += died_of(owner, unit, dealt)
    return events + dead
