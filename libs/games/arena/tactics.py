"""The tactical bot: it plays to eliminate. It scores each legal command from what its player may know
(its own hand and the public table: life, wards, hand counts, the discard pile), never the pile's order
or the other hands, and picks the best; ties are broken by the rng, so a seed gives the same game.

Its habits: finish a player it can finish; otherwise hit the weakest opponent it can hurt (never one a
ward protects); take flame burst and the combos that fit its life; keep shields, barriers and mirrors
for the reactions (never discarded or spent in a combo while life is high); answer an attack with the
defence that saves most, a mirror first."""

from __future__ import annotations

import random
from typing import Any

from .cards import COMBOS, FLAME_BURST_DAMAGE, KINDS, MYSTIC_REGENERATION_HEAL, combo_cards, kind_of
from .constants import MAX_LIFE, Bonus, Cmd, Combo, Kind, Phase, Ward
from .legal import legal_commands
from .state import State

Command = dict[str, Any]
HIT = 10.0  # one damage to an opponent
FINISH = 100.0  # an attack that takes the target's last life
DEATH = 1000.0  # taking my own last life
SWAP_GAIN = 2.5  # what a fresh card is worth against the one swapped away
LOW_LIFE = 4
SHIELDING = frozenset({Ward.VEIL.value, Ward.FORTRESS.value})

KEEP = {
    Kind.MIRROR.value: 6.0,
    Kind.ARCANE_BARRIER.value: 5.0,
    Kind.SHIELD.value: 4.0,
    Kind.EXPLOSION.value: 5.0,
    Kind.FIREBALL.value: 4.0,
    Kind.LIGHTNING.value: 3.0,
    Kind.SHADOW_VEIL.value: 3.0,
    Kind.HAND_OF_SHADOWS.value: 2.0,
    Kind.MANA_FOCUS.value: 1.5,
}


def tactical_bot(state: State, player: str, rng: random.Random) -> Command | None:
    """The best legal command for `player` by the scores above (ties: `rng`); None when the match does
    not wait for `player`."""
    commands = legal_commands(state, player)
    if not commands:
        return None
    me = state.seat(player)
    scored = [(score(state, me, c), i) for i, c in enumerate(commands)]
    top = max(s for s, _ in scored)
    return commands[rng.choice([i for s, i in scored if s >= top - 1e-9])]


def score(state: State, me: int, command: Command) -> float:
    """How much `command` helps `me` win the round (higher is better)."""
    kind = command["type"]
    if state.phase == Phase.REACTION:
        return _reaction(state, me, command.get("card"))
    if kind == Cmd.SWAP:
        return SWAP_GAIN - keep(state, me, command["card"])
    if kind == Cmd.END_TURN:
        return -sum(keep(state, me, c) for c in command["discard"])
    if kind == Cmd.DRAW:
        return 2.0
    if kind == Cmd.COMBO:
        return _combo(state, me, command) + _bonus(state, me, command["bonus"])
    return _play(state, me, kind_of(command["card"]), command.get("target"))


def hit(state: State, me: int, target: int, damage: int) -> float:
    """The worth of `damage` on `target`: more on the weaker, most when it finishes them; nothing on a
    veiled or fortified player, a loss on one whose counter sends it back."""
    wards = state.wards[target]
    if wards & SHIELDING:
        return 0.0
    if Ward.COUNTER.value in wards:
        return -HIT * (damage + 1)
    life = state.life[target]
    value = HIT * min(damage, life) + (MAX_LIFE - life)
    return value + (FINISH if damage >= life else 0.0)


def _play(state: State, me: int, kind: str, target: str | None) -> float:
    life = state.life[me]
    if kind in (Kind.FIREBALL, Kind.EXPLOSION):
        value = hit(state, me, state.seat(str(target)), KINDS[kind].damage)
        if kind == Kind.EXPLOSION:  # the recoil
            value -= DEATH if life <= 1 else HIT / 2
        return value
    if kind == Kind.LIGHTNING:
        return sum(hit(state, me, t, 1) for t in state.opponents(me))
    if kind == Kind.HEALING_LIGHT:
        return _heal(life, 1)
    if kind == Kind.HAND_OF_SHADOWS:
        return 2.0 + len(state.hands[state.seat(str(target))])
    if kind == Kind.SHADOW_VEIL:
        return 3 * HIT if life <= LOW_LIFE - 1 else 1.0
    return 0.5  # mana focus: a card for a card


def _heal(life: int, amount: int) -> float:
    """Life back is worth more the closer to death; nothing above the maximum."""
    gained = min(amount, MAX_LIFE - life)
    return gained * (HIT * 0.8 if life <= LOW_LIFE else HIT * 0.25)


def _combo(state: State, me: int, command: Command) -> float:
    combo, life = command["combo"], state.life[me]
    if combo == Combo.FLAME_BURST:
        return hit(state, me, state.seat(command["target"]), FLAME_BURST_DAMAGE) + 1.0
    if combo == Combo.MYSTIC_REGENERATION:
        return _heal(life, MYSTIC_REGENERATION_HEAL)
    if combo == Combo.DESECRATION:
        return 1.0 + keep(state, me, command["card"])
    # magic fortress and supreme counter spend two defences: worth it only when they are needed now
    if life <= LOW_LIFE:
        return 3 * HIT
    return -sum(keep(state, me, c) for c in command_cards(state, me, combo))


def command_cards(state: State, me: int, combo: str) -> tuple[str, ...]:
    """The cards of `me`'s hand a combo would spend."""
    return combo_cards(combo, state.hands[me]) or ()


def _bonus(state: State, me: int, bonus: str) -> float:
    life = state.life[me]
    if bonus == Bonus.LIFE:
        return 0.0 if life >= MAX_LIFE else (2.0 if life <= LOW_LIFE else 0.5)
    return 1.0


def _reaction(state: State, me: int, card: str | None) -> float:
    """Passing takes the whole attack; a shield or barrier blocks part; a mirror sends it back."""
    attack = state.pending[0]
    kind = kind_of(card) if card is not None else None
    taken = attack.damage - (KINDS[kind].block if kind else 0)
    value = -keep(state, me, card) / 2 if card is not None else 0.0
    if kind == Kind.MIRROR:
        taken = 0
        back = attack.damage
        value += HIT * back + (FINISH if back >= state.life[attack.attacker] else 0.0)
    taken = max(0, taken)
    return value - HIT * taken - (DEATH if taken >= state.life[me] else 0.0)


def keep(state: State, me: int, card: str) -> float:
    """How much `card` is worth keeping in `me`'s hand: defences most (they answer the attacks to
    come), then attacks; healing by how much life is missing; combo partners a little more."""
    kind = kind_of(card)
    life = state.life[me]
    if kind == Kind.HEALING_LIGHT:
        value = 1.0 if life >= MAX_LIFE else (2.0 if life > LOW_LIFE else 4.0)
    else:
        value = KEEP[kind]
    if kind == Kind.LIGHTNING:
        value += len(state.opponents(me)) - 1
    others = [kind_of(c) for c in state.hands[me] if c != card]
    return value + (1.0 if _partnered(kind, others) else 0.0)


def _partnered(kind: str, others: list[str]) -> bool:
    """Whether a card of `kind` makes a combo with one of the `others` (kinds)."""
    return any((kind == a and b in others) or (kind == b and a in others) for a, b in COMBOS.values())
