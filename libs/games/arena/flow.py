"""What several deciders share: a `Step` that emits events and keeps the state they lead to, and the
procedures of the rules (drawing with exhaustion, damage and heals, attacks and their reaction windows,
the end of an action, a turn, a round, the match).

A decider calls these in order; each emits its events through `Step.emit`, which folds them at once,
so every later check reads the state as the earlier events left it.
"""

from __future__ import annotations

import random
from typing import Any

from libs.games.sdk.rng import stream

from .appliers import evolve
from .cards import COUNTER_EXTRA, DECK, EXPLOSION_RECOIL, KINDS
from .constants import (
    DEAL,
    EXHAUSTION_REMOVES,
    MAX_LIFE,
    ROUNDS_TO_WIN,
    Bonus,
    EndReason,
    Ev,
    Kind,
    Ward,
)
from .legal import actions
from .state import Attack, State

Event = dict[str, Any]
PROTECTED = frozenset({Ward.VEIL.value, Ward.FORTRESS.value})


class Step:
    """The events of one command so far, and the state they lead to."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)

    def rng(self) -> random.Random:
        """A fresh random stream of the seed for the next random outcome (the state counts them)."""
        return stream(self.state.seed, f"arena:{self.state.randoms}")

    def pid(self, seat: int) -> str:
        return self.state.pids[seat]


def draw(step: Step, seat: int, reason: str) -> bool:
    """`seat` draws the pile's top card. An empty pile is first rebuilt from the discard pile, less 2
    random cards removed from the round (shown to all). With nothing to draw (pile and discard pile
    empty) the magic has run out: NothingDrawn, and the round is decided by life (`by_life`). True when
    that ended the round."""
    s = step.state
    if not s.pile and s.discard:
        rng = step.rng()
        removed = rng.sample(s.discard, min(EXHAUSTION_REMOVES, len(s.discard)))
        rest = [c for c in s.discard if c not in removed]
        rng.shuffle(rest)
        step.emit({"type": Ev.PILE_REBUILT.value, "removed": removed, "pile": rest})
        s = step.state
    if not s.pile:
        step.emit({"type": Ev.NOTHING_DRAWN.value, "player_id": step.pid(seat), "reason": reason})
        by_life(step)
        return True
    card = s.pile[0]
    step.emit({"type": Ev.CARD_DRAWN.value, "player_id": step.pid(seat), "card": card, "reason": reason})
    return False


def hurt(step: Step, seat: int, amount: int, by: int | None) -> None:
    """`seat` loses `amount` life (never below 0), unless a veil or a fortress protects it."""
    life = step.state.life[seat]
    if amount <= 0 or step.state.wards[seat] & PROTECTED or life <= 0:
        return
    lost = min(amount, life)
    step.emit(
        {
            "type": Ev.LIFE_LOST.value,
            "player_id": step.pid(seat),
            "amount": lost,
            "life": life - lost,
            "by": None if by is None else step.pid(by),
        }
    )


def heal(step: Step, seat: int, amount: int) -> None:
    """`seat` gains up to `amount` life, never above 9 (nothing gained: no event)."""
    life = step.state.life[seat]
    gained = min(amount, MAX_LIFE - life)
    if gained > 0:
        step.emit(
            {
                "type": Ev.LIFE_GAINED.value,
                "player_id": step.pid(seat),
                "amount": gained,
                "life": life + gained,
            }
        )


def declare(step: Step, attacker: int, targets: list[int], damage: int, source: str) -> None:
    """One attack per target, in the order given, each to be resolved (and reacted to) in turn."""
    for target in targets:
        step.emit(
            {
                "type": Ev.ATTACK_DECLARED.value,
                "attack": step.state.attacks + 1,
                "attacker": step.pid(attacker),
                "target": step.pid(target),
                "damage": damage,
                "source": source,
            }
        )


def proceed(step: Step) -> None:
    """Carry the action on: the next attack opens its target's window (or resolves at once against a
    ward: a veil or fortress prevents it, a counter sends it back); with none left, the action ends."""
    while not step.state.ended:
        s = step.state
        if not s.pending:
            end_action(step)
            return
        attack = s.pending[0]
        if not (s.in_round[attack.attacker] and s.in_round[attack.target]):
            step.emit({"type": Ev.ATTACK_CANCELLED.value, "attack": attack.number})
            continue
        wards = s.wards[attack.target]
        ward = next((w for w in (Ward.VEIL, Ward.FORTRESS, Ward.COUNTER) if w.value in wards), None)
        if ward is None:
            step.emit(
                {
                    "type": Ev.REACTION_WINDOW_OPENED.value,
                    "attack": attack.number,
                    "player_id": step.pid(attack.target),
                }
            )
            return
        if resolve(step, attack, ward.value):
            return


def resolve(step: Step, attack: Attack, answer: str | None) -> bool:
    """The attack's damage after the target's answer (a defence card, a ward, or None), the explosion's
    recoil, then the fallen leave the round; True when that ended the round."""
    to_target, back = attack.damage, 0
    if answer in PROTECTED:
        to_target = 0
    elif answer == Ward.COUNTER:
        to_target, back = max(0, attack.damage - COUNTER_EXTRA), attack.damage + COUNTER_EXTRA
    elif answer == Kind.MIRROR:
        to_target, back = 0, attack.damage
    elif answer is not None:
        to_target = max(0, attack.damage - KINDS[answer].block)
    recoil = EXPLOSION_RECOIL if attack.source == Kind.EXPLOSION else 0
    step.emit(
        {
            "type": Ev.ATTACK_RESOLVED.value,
            "attack": attack.number,
            "attacker": step.pid(attack.attacker),
            "target": step.pid(attack.target),
            "answer": answer,
            "to_target": to_target,
            "to_attacker": back + recoil,
        }
    )
    hurt(step, attack.target, to_target, attack.attacker)
    hurt(step, attack.attacker, back, attack.target)
    hurt(step, attack.attacker, recoil, None)
    return settle(step)


def end_action(step: Step) -> None:
    """A combo's bonus, then the discard phase; an active player out of the round ends the turn."""
    s = step.state
    seat = s.active
    if not s.in_round[seat]:
        next_turn(step)
        return
    if s.bonus is not None:
        step.emit({"type": Ev.BONUS_TAKEN.value, "player_id": step.pid(seat), "bonus": s.bonus})
        if s.bonus == Bonus.DRAW:
            if draw(step, seat, "bonus"):
                return
        else:
            heal(step, seat, 1)
    step.emit({"type": Ev.ACTION_ENDED.value, "player_id": step.pid(seat), "skipped": False})


def discard_down(step: Step, seat: int, cards: list[str]) -> None:
    for card in cards:
        step.emit(
            {
                "type": Ev.CARD_DISCARDED.value,
                "player_id": step.pid(seat),
                "card": card,
                "reason": "hand_limit",
            }
        )


def next_turn(step: Step) -> None:
    """The turn ends; the next seat still in the round starts its turn."""
    s = step.state
    step.emit({"type": Ev.TURN_ENDED.value, "player_id": step.pid(s.active)})
    n = len(s.pids)
    seat = next(t for t in ((s.active + k) % n for k in range(1, n + 1)) if s.in_round[t])
    begin_turn(step, seat)


def begin_turn(step: Step, seat: int) -> None:
    """TurnStarted; a player with no action to take (3 cards, none playable) goes straight to the
    discard phase."""
    s = step.state
    step.emit(
        {"type": Ev.TURN_STARTED.value, "player_id": step.pid(seat), "turn": s.turn + 1, "round": s.round}
    )
    if not actions(step.state, seat):
        step.emit({"type": Ev.ACTION_ENDED.value, "player_id": step.pid(seat), "skipped": True})


def settle(step: Step) -> bool:
    """Players at 0 life leave the round (their hands to the discard pile); with one left it wins the
    round, with none (they fell together) the round is replayed. True when the round ended."""
    s = step.state
    for seat in s.standing():
        if s.life[seat] <= 0:
            step.emit(
                {
                    "type": Ev.PLAYER_OUT.value,
                    "player_id": step.pid(seat),
                    "cards": list(step.state.hands[seat]),
                }
            )
    standing = step.state.standing()
    if len(standing) > 1:
        return False
    round_over(step, standing[0] if standing else None, "last_standing")
    return True


def by_life(step: Step) -> None:
    """The round is decided by life: the one standing player with the most wins it; a tie replays it."""
    s = step.state
    standing = s.standing()
    most = max(s.life[t] for t in standing)
    leaders = [t for t in standing if s.life[t] == most]
    round_over(step, leaders[0] if len(leaders) == 1 else None, "most_life")


def round_over(step: Step, winner: int | None, how: str) -> None:
    """RoundWon (or RoundReplayed without a winner); the match ends at 3 rounds won, else a round starts."""
    s = step.state
    if winner is None:
        step.emit({"type": Ev.ROUND_REPLAYED.value, "round": s.round, "how": how})
        start_round(step)
        return
    wins = s.wins[winner] + 1
    step.emit(
        {
            "type": Ev.ROUND_WON.value,
            "round": s.round,
            "player_id": step.pid(winner),
            "wins": wins,
            "how": how,
        }
    )
    if wins >= ROUNDS_TO_WIN:
        end_match(step, winner, EndReason.ROUNDS.value)
    else:
        start_round(step)


def start_round(step: Step) -> None:
    """All 16 cards shuffled, 2 dealt to each player in the match, everyone at 9 life; round 1 begins
    with the seed's first player, each later round with the next seat in the match."""
    s = step.state
    n = len(s.pids)
    if s.round == 0:
        first = s.first
    else:
        first = next(t for t in ((s.round_first + k) % n for k in range(1, n + 1)) if s.in_match[t])
    pile = list(DECK)
    step.rng().shuffle(pile)
    step.emit({"type": Ev.ROUND_STARTED.value, "round": s.round + 1, "first": step.pid(first), "pile": pile})
    order = [t for t in ((first + k) % n for k in range(n)) if s.in_match[t]]
    for seat in order:
        for _ in range(DEAL):
            draw(step, seat, "deal")
    begin_turn(step, first)


def end_match(step: Step, winner: int, reason: str) -> None:
    """MatchEnded: the winner first; then the players still in the match by rounds won (ties share a
    place); then those who left, the last to leave first."""
    s = step.state
    rest = [t for t in range(len(s.pids)) if t != winner and s.in_match[t]]
    groups: list[list[str]] = [[step.pid(winner)]]
    for wins in sorted({s.wins[t] for t in rest}, reverse=True):
        groups.append([step.pid(t) for t in rest if s.wins[t] == wins])
    groups += [[pid] for pid in reversed(s.left) if pid != step.pid(winner)]
    step.emit(
        {"type": Ev.MATCH_ENDED.value, "winner": step.pid(winner), "reason": reason, "placements": groups}
    )


def leave(step: Step, seat: int, reason: str) -> None:
    """`seat` leaves the match (its hand to the discard pile); the others go on. The last one in the
    match wins it; an open window or turn of the leaver moves on."""
    was_active = seat == step.state.active
    step.emit(
        {
            "type": Ev.PLAYER_LEFT.value,
            "player_id": step.pid(seat),
            "reason": reason,
            "cards": list(step.state.hands[seat]),
        }
    )
    s = step.state
    remaining = [t for t, inside in enumerate(s.in_match) if inside]
    if len(remaining) == 1:
        end_match(step, remaining[0], EndReason.LAST_IN_MATCH.value)
        return
    if settle(step):
        return
    if step.state.pending:
        proceed(step)
    elif was_active:
        next_turn(step)
