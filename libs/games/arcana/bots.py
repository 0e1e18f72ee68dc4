"""Bots that play Arcana through the public API: a random bot and a one-ply greedy bot."""

from __future__ import annotations

import random
from typing import Any

from .board import attacks, is_early
from .engine import decide, fold_onto
from .errors import RuleViolation
from .legal import legal_commands
from .state import PlayerState, State

Command = dict[str, Any]

WIN_SCORE = 10_000.0


def random_bot(state: State, player_id: str, rng: random.Random) -> Command | None:
    """A uniformly random legal command, or None when the player has nothing to do."""
    commands = legal_commands(state, player_id)
    return rng.choice(commands) if commands else None


def greedy_bot(state: State, player_id: str, rng: random.Random) -> Command | None:
    """Keep cheap cards at the mulligan; then take the legal command whose result scores best (one ply),
    ending the turn when nothing beats the position as it stands. Ties are broken by `rng`."""
    commands = legal_commands(state, player_id)
    if not commands:
        return None
    if state.phase == "mulligan":
        me = state.players[state.index(player_id)]
        return {
            "type": "mulligan",
            "player": player_id,
            "cards": [c for c in me.hand if state.cards[c].cost > 3],
        }
    best: list[Command] = []
    best_score = float("-inf")
    for command in commands:
        try:
            after = fold_onto(state, decide(state, command))
        except RuleViolation:  # pragma: no cover - legal commands are accepted
            continue
        score = evaluate(after, player_id)
        if command["type"] == "end_turn":
            score = evaluate(state, player_id)
        if score > best_score + 1e-9:
            best, best_score = [command], score
        elif abs(score - best_score) <= 1e-9:
            best.append(command)
    return rng.choice(best)


def evaluate(state: State, player_id: str) -> float:
    """How good `state` is for `player_id`: win/loss, hero health, board strength, cards in hand."""
    if state.phase == "ended":
        if state.winner == player_id:
            return WIN_SCORE
        return 0.0 if state.winner == "draw" else -WIN_SCORE
    index = state.index(player_id)
    me, foe = state.players[index], state.players[1 - index]
    early = is_early(state)
    return (
        _board_value(me, early)
        - _board_value(foe, early)
        + 1.0 * (me.hero - foe.hero)
        + 0.7 * (len(me.hand) - len(foe.hand))
    )


def _board_value(p: PlayerState, early: bool) -> float:
    value = 0.0
    for unit, power in zip(p.board, attacks(p.board, early), strict=True):
        value += 2.0 + 1.5 * power + 1.0 * unit.health + (1.0 if unit.ward else 0.0)
        if unit.card.keyword == "taunt":
            value += 1.0
    return value
