"""Playing a card from hand: checks common to units and spells, and a unit landing (with its Summon
effect). Spells: `spells`."""

from __future__ import annotations

from .board import cost_of, summon_stats
from .constants import BOARD_SIZE
from .errors import BoardFull, CardNotInHand, IllegalTarget, InvalidPosition, NotEnoughMana
from .names import CARD_PLAYED, UNIT_BUFFED, UNIT_SUMMONED, Command, Event
from .spells import cast_spell
from .state import State
from .turns import require_turn


def decide_play(state: State, index: int, command: Command) -> list[Event]:
    """Player `index` plays `command["card"]` (a unit at `position`, a spell on `target`). Raises
    `RuleViolation`: `wrong_phase`, `not_your_turn`, `card_not_in_hand`, `not_enough_mana`, `board_full`,
    `invalid_position`, `illegal_target`, `target_required`."""
    require_turn(state, index)
    me = state.players[index]
    iid = command.get("card")
    if not isinstance(iid, str) or iid not in me.hand:
        raise CardNotInHand(f"{iid!r} is not in your hand")
    card = state.cards[iid]
    cost = cost_of(state, card)
    if cost > me.mana:
        raise NotEnoughMana(f"{card.id} costs {cost}, you have {me.mana} mana")
    position, target = command.get("position"), command.get("target")
    if card.type == "unit":
        if target is not None:
            raise IllegalTarget("a unit is played without a target")
        if len(me.board) >= BOARD_SIZE:
            raise BoardFull(f"a board holds at most {BOARD_SIZE} units")
        if type(position) is not int or not 0 <= position <= len(me.board):
            raise InvalidPosition(f"position is an int in 0..{len(me.board)}")
        return _play_unit(state, index, iid, cost, position)
    if position is not None:
        raise InvalidPosition("a spell takes no position")
    return cast_spell(state, index, iid, cost, target)


def _play_unit(state: State, index: int, iid: str, cost: int, position: int) -> list[Event]:
    me = state.players[index]
    card = state.cards[iid]
    attack, health = summon_stats(state, card)
    pid = me.id
    events: list[Event] = [
        {
            "type": CARD_PLAYED,
            "player_id": pid,
            "card": iid,
            "card_id": card.id,
            "cost": cost,
            "position": position,
        },
        {
            "type": UNIT_SUMMONED,
            "player_id": pid,
            "unit": iid,
            "card_id": card.id,
            "position": position,
            "attack": attack,
            "health": health,
        },
    ]
    if card.summon == "per_wild":
        n = sum(u.card.tribe == "wild" for u in me.board)
        if n:
            events.append({"type": UNIT_BUFFED, "player_id": pid, "unit": iid, "attack": n, "health": n})
    elif card.summon == "giant_buff":
        events += [
            {"type": UNIT_BUFFED, "player_id": pid, "unit": u.id, "attack": 1, "health": 1}
            for u in me.board
            if u.card.tribe == "giant"
        ]
    return events
