"""legal_commands: exactly the game actions `decide` accepts from a player now."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from .board import attacks, cost_of, is_early
from .constants import BOARD_SIZE
from .state import State


def legal_commands(state: State, player_id: str) -> list[dict[str, Any]]:
    """Every command `decide` accepts from `player_id` now, with every legal position and target.

    Mulligan phase: one `mulligan` per subset of the hand (in hand order) until the player has chosen. Playing
    phase, for the active player: each affordable card at each position (units) or on each legal target
    (targeted spells), each ready unit against each target it may take, and `end_turn`. `concede` (always
    accepted while the match runs) and the system commands `timeout`/`forfeit` are not listed.
    """
    if state.phase == "ended" or player_id not in state.pids:
        return []
    index = state.index(player_id)
    me = state.players[index]
    if state.phase == "mulligan":
        if me.mulligan_done:
            return []
        hand = me.hand
        return [
            {"type": "mulligan", "player": player_id, "cards": list(cards)}
            for k in range(len(hand) + 1)
            for cards in combinations(hand, k)
        ]
    if index != state.active:
        return []
    foe = state.players[1 - index]
    commands: list[dict[str, Any]] = []
    mana = me.mana
    n = len(me.board)
    cards = state.cards
    for iid in me.hand:
        card = cards[iid]
        if cost_of(state, card) > mana:
            continue
        if card.type == "unit":
            if n < BOARD_SIZE:
                commands += [
                    {"type": "play", "player": player_id, "card": iid, "position": k} for k in range(n + 1)
                ]
        elif card.effect == "damage_unit_2":
            commands += [
                {"type": "play", "player": player_id, "card": iid, "target": u.id}
                for u in (*me.board, *foe.board)
            ]
        elif card.effect == "buff_unit_2_1":
            commands += [{"type": "play", "player": player_id, "card": iid, "target": u.id} for u in me.board]
        else:
            commands.append({"type": "play", "player": player_id, "card": iid})
    if me.board:
        turn = state.turn
        powers = attacks(me.board, is_early(state))
        taunts = [u.id for u in foe.board if u.card.keyword == "taunt"]
        targets = taunts or [u.id for u in foe.board] + ["hero"]
        for unit, power in zip(me.board, powers, strict=True):
            if (
                power <= 0
                or unit.attacked_turn == turn
                or (unit.played_turn == turn and unit.card.keyword != "rush")
            ):
                continue
            commands += [
                {"type": "attack", "player": player_id, "attacker": unit.id, "target": t} for t in targets
            ]
    commands.append({"type": "end_turn", "player": player_id})
    return commands
