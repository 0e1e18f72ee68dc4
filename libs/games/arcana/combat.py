"""Attacks: a unit against the enemy hero or an enemy unit (Taunt, Rush, Ward, Lifesteal, counter-attack)."""

from __future__ import annotations

from typing import Any

from .board import attacks, is_early
from .constants import HERO, EndReason
from .effects import died_of, ended, heal, strike
from .errors import (
    AlreadyAttacked,
    IllegalTarget,
    MustAttackTaunt,
    UnitCannotAttack,
    UnknownUnit,
)
from .names import ATTACK_RESOLVED, DAMAGE_DEALT, LIFESTEAL, RUSH, TAUNT, Command, Event
from .state import PlayerState, State, Unit
from .turns import require_turn


def decide_attack(state: State, index: int, command: Command) -> list[Event]:
    """Player `index`'s unit `command["attacker"]` attacks `command["target"]` (a unit id or "hero").
    Raises `RuleViolation`: `wrong_phase`, `not_your_turn`, `unknown_unit`, `already_attacked`,
    `unit_cannot_attack`, `illegal_target`, `must_attack_taunt`."""
    require_turn(state, index)
    me, foe = state.players[index], state.players[1 - index]
    attacker_id, target = command.get("attacker"), command.get("target")
    i = find(me.board, attacker_id)
    if i < 0:
        raise UnknownUnit(f"{attacker_id!r} is not a unit on your board")
    attacker = me.board[i]
    _check_ready(attacker, state.turn)
    early = is_early(state)
    power = attacks(me.board, early)[i]
    if power <= 0:
        raise UnitCannotAttack("a unit without attack cannot attack")
    j = -1 if target == HERO else _target_index(foe, target)
    defender = foe.board[j] if j >= 0 else None
    if (defender is None or defender.card.keyword != TAUNT) and any(
        u.card.keyword == TAUNT for u in foe.board
    ):
        raise MustAttackTaunt("the defender has a Taunt unit: attack it first")
    resolved: Event = {"type": ATTACK_RESOLVED, "player_id": me.id, "attacker": attacker.id, "target": target}
    if defender is None:
        return [resolved, *_hero_hit(me, foe, attacker, power)]
    counter = attacks(foe.board, early)[j]
    return [resolved, *_exchange(me, foe, attacker, power, defender, counter)]


def find(board: tuple[Unit, ...], iid: Any) -> int:
    """The position of unit `iid` on `board`, or -1."""
    for k, unit in enumerate(board):
        if unit.id == iid:
            return k
    return -1


def _check_ready(attacker: Unit, turn: int) -> None:
    if attacker.attacked_turn == turn:
        raise AlreadyAttacked("each unit attacks once per turn")
    if attacker.played_turn == turn and attacker.card.keyword != RUSH:
        raise UnitCannotAttack("a unit played this turn cannot attack unless it has Rush")


def _target_index(foe: PlayerState, target: Any) -> int:
    j = find(foe.board, target)
    if j < 0:
        raise IllegalTarget(f"{target!r} is neither the enemy hero nor an enemy unit")
    return j


def _hero_hit(me: PlayerState, foe: PlayerState, attacker: Unit, power: int) -> list[Event]:
    events: list[Event] = [
        {"type": DAMAGE_DEALT, "player_id": foe.id, "target": HERO, "amount": power, "source": attacker.id}
    ]
    if attacker.card.keyword == LIFESTEAL:
        events += heal(me, power)
    if foe.hero <= power:
        events.append(ended(me.id, EndReason.HERO_KILLED.value))
    return events


def _exchange(
    me: PlayerState, foe: PlayerState, attacker: Unit, power: int, defender: Unit, counter: int
) -> list[Event]:
    """Unit against unit: the blow and the counter-blow (each absorbed by a Ward), Lifesteal, deaths."""
    hit, dealt = strike(foe.id, defender, power, attacker.id)
    events = [hit]
    taken = 0
    if counter > 0:
        hit, taken = strike(me.id, attacker, counter, defender.id)
        events.append(hit)
    if dealt and attacker.card.keyword == LIFESTEAL:
        events += heal(me, dealt)
    if taken and defender.card.keyword == LIFESTEAL:
        events += heal(foe, taken)
    return [*events, *died_of(foe.id, defender, dealt), *died_of(me.id, attacker, taken)]
