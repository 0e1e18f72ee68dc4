"""Casting a spell: its target checked, then its effect."""

from __future__ import annotations

from typing import Any

from .constants import HERO, EndReason
from .effects import damage_units, drawn, ended, heal
from .errors import IllegalTarget, TargetRequired
from .names import CARD_PLAYED, DAMAGE_DEALT, SPELL_CAST, UNIT_BUFFED, Event
from .state import PlayerState, State


def cast_spell(state: State, index: int, iid: str, cost: int, target: Any) -> list[Event]:
    """Player `index` casts the spell `iid` for `cost` on `target`; raises `RuleViolation`
    (`target_required`, `illegal_target`) for a target its effect does not take."""
    me, foe = state.players[index], state.players[1 - index]
    card = state.cards[iid]
    effect = card.effect
    _check_target(me, foe, card.id, effect, target)
    pid = me.id
    played: Event = {"type": CARD_PLAYED, "player_id": pid, "card": iid, "card_id": card.id, "cost": cost}
    if target is not None:
        played["target"] = target
    cast = {
        "type": SPELL_CAST,
        "player_id": pid,
        "card": iid,
        "card_id": card.id,
        "effect": effect,
        "target": target,
    }
    return [played, cast, *_effect(state, me, foe, iid, effect, target)]


def _check_target(me: PlayerState, foe: PlayerState, card_id: str, effect: str | None, target: Any) -> None:
    if effect in ("damage_unit_2", "buff_unit_2_1"):
        if target is None:
            raise TargetRequired(f"{card_id} needs a target unit")
        sides = (me, foe) if effect == "damage_unit_2" else (me,)
        if not any(u.id == target for side in sides for u in side.board):
            raise IllegalTarget(f"{target!r} is not a unit {card_id} may target")
    elif target is not None:
        raise IllegalTarget(f"{card_id} takes no target")


def _effect(
    state: State, me: PlayerState, foe: PlayerState, iid: str, effect: str | None, target: Any
) -> list[Event]:
    """The events of the spell `iid`'s `effect` (its target already checked)."""
    pid = me.id
    if effect == "damage_unit_2":
        owner = me if any(u.id == target for u in me.board) else foe
        unit = next(u for u in owner.board if u.id == target)
        return damage_units([(owner.id, unit, 2)], iid)
    if effect == "heal_hero_4":
        return heal(me, 4)
    if effect == "draw_1":
        return [drawn(pid, me.deck[0], state.cards[me.deck[0]].id)] if me.deck else []
    if effect == "buff_unit_2_1":
        return [{"type": UNIT_BUFFED, "player_id": pid, "unit": target, "attack": 2, "health": 1}]
    if effect == "damage_enemy_hero_3":
        hit = {"type": DAMAGE_DEALT, "player_id": foe.id, "target": HERO, "amount": 3, "source": iid}
        return [hit, ended(pid, EndReason.HERO_KILLED.value)] if foe.hero <= 3 else [hit]
    if effect == "damage_enemy_units_2":
        return damage_units([(foe.id, u, 2) for u in foe.board], iid)
    if effect == "buff_order_1_1":
        return [
            {"type": UNIT_BUFFED, "player_id": pid, "unit": u.id, "attack": 1, "health": 1}
            for u in me.board
            if u.card.tribe == "order"
        ]
    if effect == "damage_all_units_1":
        return damage_units([(p.id, u, 1) for p in (me, foe) for u in p.board], iid)
    return []
