"""Bots that play the arena through its public functions: a random bot and a one-ply greedy bot."""

from __future__ import annotations

import random
from typing import Any

from .appliers import evolve
from .cards import KINDS, kind_of
from .constants import Family, Ward
from .deciders import decide
from .legal import legal_commands
from .state import State

Command = dict[str, Any]
WIN = 10_000.0
CARD_VALUE = {Family.ATTACK.value: 1.0, Family.DEFENCE.value: 1.2, Family.SUPPORT.value: 0.8}


def random_bot(state: State, player: str, rng: random.Random) -> Command | None:
    """A uniformly random legal command, or None when the match does not wait for `player`."""
    commands = legal_commands(state, player)
    return rng.choice(commands) if commands else None


def greedy_bot(state: State, player: str, rng: random.Random) -> Command | None:
    """The legal command whose result scores best for `player` (one ply: the state after its events);
    ties broken by `rng`. None when the match does not wait for `player`."""
    best: list[Command] = []
    best_score = float("-inf")
    for command in legal_commands(state, player):
        after = state
        for event in decide(state, command):
            after = evolve(after, event)
        score = evaluate(after, player)
        if score > best_score + 1e-9:
            best, best_score = [command], score
        elif abs(score - best_score) <= 1e-9:
            best.append(command)
    return rng.choice(best) if best else None


def evaluate(state: State, player: str) -> float:
    """How good `state` is for `player`: rounds won, life against the opponents', cards in hand, wards,
    and the damage of attacks still waiting for an answer."""
    me = state.seat(player)
    if state.ended:
        return WIN if state.winner == player else -WIN
    others = [s for s in range(len(state.pids)) if s != me and state.in_match[s]]
    score = 100.0 * state.wins[me] - 100.0 * max((state.wins[s] for s in others), default=0)
    score += 3.0 * state.life[me] if state.in_round[me] else -40.0
    standing = [s for s in others if state.in_round[s]]
    if standing:
        score -= 2.0 * sum(state.life[s] for s in standing) / len(standing) + 10.0 * len(standing)
    score += sum(CARD_VALUE[KINDS[kind_of(c)].family] for c in state.hands[me])
    score += 2.0 * len(state.wards[me] & {Ward.VEIL.value, Ward.FORTRESS.value, Ward.COUNTER.value})
    for attack in state.pending:
        if attack.target == me:
            score -= 3.0 * attack.damage
        elif attack.attacker == me:
            score += 2.0 * attack.damage
    return score
