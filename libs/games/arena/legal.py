"""legal_commands: exactly the commands `decide` accepts from a player now (concede and the system
commands aside)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from .cards import COMBOS, DEFENCES, combo_cards, kind_of
from .constants import HAND_LIMIT, Bonus, Combo, Kind, Phase
from .state import State

Command = dict[str, Any]
BONUSES = (Bonus.DRAW.value, Bonus.LIFE.value)


def legal_commands(state: State, player: str) -> list[Command]:
    """Every command `decide` accepts from `player` now, with every target and choice, each with its
    "player". Reaction window: each defence card in the hand, and pass (for the attacked player only).
    Action: draw (unless the turn started with 3 cards), each card but defences on each legal target,
    each combo the hand holds on each target with each bonus. Discard phase: swap each card (once), and
    end_turn with each choice of exactly the cards over 3."""
    if state.ended or player not in state.pids:
        return []
    seat = state.seat(player)
    if not state.in_match[seat]:
        return []
    hand = state.hands[seat]
    if state.phase == Phase.REACTION:
        if state.pending[0].target != seat:
            return []
        return [{"type": "react", "player": player, "card": c} for c in hand if kind_of(c) in DEFENCES] + [
            {"type": "pass", "player": player}
        ]
    if seat != state.active:
        return []
    if state.phase == Phase.DISCARD:
        swaps = [] if state.swapped else [{"type": "swap", "player": player, "card": c} for c in hand]
        ends = [
            {"type": "end_turn", "player": player, "discard": list(cards)}
            for cards in combinations(hand, state.excess(seat))
        ]
        return swaps + ends
    return actions(state, seat)


def actions(state: State, seat: int) -> list[Command]:
    """Every action `seat` may take now (its turn's action phase assumed)."""
    player = state.pids[seat]
    hand = state.hands[seat]
    out: list[Command] = [] if state.start_hand >= HAND_LIMIT else [{"type": "draw", "player": player}]
    opponents = [state.pids[t] for t in state.opponents(seat)]
    for card in hand:
        kind = kind_of(card)
        if kind in DEFENCES:
            continue
        if kind in (Kind.FIREBALL, Kind.EXPLOSION):
            out += [{"type": "play", "player": player, "card": card, "target": t} for t in opponents]
        elif kind == Kind.HAND_OF_SHADOWS:
            out += [
                {"type": "play", "player": player, "card": card, "target": t}
                for t in opponents
                if state.hands[state.seat(t)]
            ]
        else:
            out.append({"type": "play", "player": player, "card": card})
    for combo in COMBOS:
        if combo_cards(combo, hand) is None:
            continue
        base = {"type": "combo", "player": player, "combo": combo}
        if combo == Combo.FLAME_BURST:
            choices: list[dict[str, Any]] = [{"target": t} for t in opponents]
        elif combo == Combo.DESECRATION:
            choices = [{"card": c} for c in state.discard]
        else:
            choices = [{}]
        out += [{**base, **choice, "bonus": bonus} for choice in choices for bonus in BONUSES]
    return out
