"""`decide`: a command checked against the state and turned into the events it causes (never changing
the state). One decider per command type; each raises the precise `ArenaRuleViolation` subclass."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from .cards import (
    COMBOS,
    DEFENCES,
    FLAME_BURST_DAMAGE,
    FORTRESS_HEAL,
    KINDS,
    MYSTIC_REGENERATION_HEAL,
    TARGETED,
    combo_cards,
    kind_of,
)
from .constants import HAND_LIMIT, Bonus, Cmd, Combo, Ev, Kind, LeaveReason, Phase, Ward
from .errors import (
    AlreadySwapped,
    CannotDraw,
    CardNotInHand,
    IllegalTarget,
    InvalidBonus,
    InvalidCommand,
    MatchOver,
    NotPlayable,
    NotYourTurn,
    UnknownPlayer,
    WrongDiscard,
    WrongPhase,
)
from .flow import Event, Step, declare, discard_down, draw, heal, leave, next_turn, proceed, resolve
from .state import State

Command = Mapping[str, Any]


def decide(state: State, command: Any) -> list[Event]:
    """The events `command` causes in `state`; raises an `ArenaRuleViolation` subclass if refused.

    Checked in this order: a well-formed command (`InvalidCommand`), a match still running (`MatchOver`),
    a player still in the match (`UnknownPlayer`), then the command's own rules. `concede` and the system
    commands `forfeit` (any player in the match) and `timeout` (the awaited player) are accepted at any
    time the match runs.
    """
    if not isinstance(command, Mapping) or not isinstance(command.get("type"), str):
        raise InvalidCommand("a command is a mapping with a string type")
    handler = _DECIDERS.get(command["type"])
    if handler is None:
        raise InvalidCommand(f"unknown command type {command['type']!r}")
    if state.ended:
        raise MatchOver("the match is over")
    player = command.get("player")
    if not isinstance(player, str) or player not in state.pids or not state.in_match[state.seat(player)]:
        raise UnknownPlayer(f"{player!r} is not a player in this match")
    step = Step(state)
    handler(step, state.seat(player), command)
    return step.events


def _turn(state: State, seat: int, phase: Phase) -> None:
    """Raises `NotYourTurn` unless `seat` is active, `WrongPhase` unless the turn is in `phase`."""
    if seat != state.active or state.phase == Phase.REACTION:
        raise NotYourTurn("it is not your move")
    if state.phase != phase:
        raise WrongPhase(f"not in the {state.phase} phase")


def _in_hand(state: State, seat: int, card: Any) -> str:
    if not isinstance(card, str):
        raise InvalidCommand("card is an instance id")
    if card not in state.hands[seat]:
        raise CardNotInHand(f"{card!r} is not in your hand")
    return card


def _opponent(state: State, seat: int, target: Any) -> int:
    """The seat of `target`, an opponent still in the round; raises `IllegalTarget`."""
    if not isinstance(target, str) or target not in state.pids:
        raise IllegalTarget("the target is a player of the match")
    other = state.seat(target)
    if other not in state.opponents(seat):
        raise IllegalTarget("the target is an opponent still in the round")
    return other


def _no_target(command: Command) -> None:
    if command.get("target") is not None:
        raise IllegalTarget("this card takes no target")


def _draw(step: Step, seat: int, command: Command) -> None:
    """Draw a card as the action; raises `CannotDraw` for a turn started with 3 cards."""
    s = step.state
    _turn(s, seat, Phase.ACTION)
    if s.start_hand >= HAND_LIMIT:
        raise CannotDraw(f"a turn started with {HAND_LIMIT} cards cannot draw")
    if not draw(step, seat, "draw"):
        proceed(step)


def _play(step: Step, seat: int, command: Command) -> None:
    """Play one card of the hand as the action (not a defence: those only answer attacks)."""
    s = step.state
    _turn(s, seat, Phase.ACTION)
    card = _in_hand(s, seat, command.get("card"))
    kind = kind_of(card)
    if kind in DEFENCES:
        raise NotPlayable("a defence card is played only in answer to an attack, or in a combo")
    target = -1  # none
    if kind in TARGETED:
        target = _opponent(s, seat, command.get("target"))
        if kind == Kind.HAND_OF_SHADOWS and not s.hands[target]:
            raise IllegalTarget("that player has no card to take")
    else:
        _no_target(command)
    step.emit(
        {
            "type": Ev.CARD_PLAYED.value,
            "player_id": step.pid(seat),
            "card": card,
            "target": None if target < 0 else step.pid(target),
        }
    )
    if kind in (Kind.FIREBALL, Kind.EXPLOSION):
        declare(step, seat, [target], KINDS[kind].damage, kind)
    elif kind == Kind.LIGHTNING:
        declare(step, seat, s.opponents(seat), KINDS[kind].damage, kind)
    elif kind == Kind.HEALING_LIGHT:
        heal(step, seat, KINDS[kind].heal)
    elif kind == Kind.HAND_OF_SHADOWS:
        victim = step.state.hands[target]
        taken = step.rng().choice(victim)
        step.emit(
            {
                "type": Ev.CARD_STOLEN.value,
                "player_id": step.pid(seat),
                "victim": command["target"],
                "card": taken,
            }
        )
    elif kind == Kind.SHADOW_VEIL:
        step.emit({"type": Ev.WARD_RAISED.value, "player_id": step.pid(seat), "ward": Ward.VEIL.value})
    elif kind == Kind.MANA_FOCUS and draw(step, seat, "mana_focus"):
        return
    proceed(step)


def _combo(step: Step, seat: int, command: Command) -> None:
    """Play two cards of the hand as one combo, as the action, and pick its bonus (draw 1 or +1 life)."""
    s = step.state
    _turn(s, seat, Phase.ACTION)
    combo = command.get("combo")
    if not isinstance(combo, str) or combo not in COMBOS:
        raise InvalidCommand(f"combo is one of {', '.join(COMBOS)}")
    bonus = command.get("bonus")
    if bonus not in (Bonus.DRAW, Bonus.LIFE):
        raise InvalidBonus('the bonus is "draw" or "life"')
    cards = combo_cards(combo, s.hands[seat])
    if cards is None:
        raise CardNotInHand(f"{combo} needs {' and '.join(COMBOS[combo])} in your hand")
    target = -1  # none
    if combo == Combo.FLAME_BURST:
        target = _opponent(s, seat, command.get("target"))
    else:
        _no_target(command)
    taken = command.get("card")
    if combo == Combo.DESECRATION:
        if not isinstance(taken, str) or taken not in s.discard:
            raise IllegalTarget("card is a card of the discard pile")
    elif taken is not None:
        raise IllegalTarget("only desecration takes a card")
    step.emit(
        {
            "type": Ev.COMBO_PLAYED.value,
            "player_id": step.pid(seat),
            "combo": combo,
            "cards": list(cards),
            "target": None if target < 0 else step.pid(target),
            "bonus": str(bonus),
        }
    )
    if combo == Combo.FLAME_BURST:
        declare(step, seat, [target], FLAME_BURST_DAMAGE, combo)
    elif combo == Combo.MAGIC_FORTRESS:
        step.emit({"type": Ev.WARD_RAISED.value, "player_id": step.pid(seat), "ward": Ward.FORTRESS.value})
        heal(step, seat, FORTRESS_HEAL)
    elif combo == Combo.SUPREME_COUNTER:
        step.emit({"type": Ev.WARD_RAISED.value, "player_id": step.pid(seat), "ward": Ward.COUNTER.value})
    elif combo == Combo.DESECRATION:
        step.emit({"type": Ev.CARD_TAKEN.value, "player_id": step.pid(seat), "card": taken})
    else:
        heal(step, seat, MYSTIC_REGENERATION_HEAL)
    proceed(step)


def _window(state: State, seat: int) -> None:
    """Raises `WrongPhase` unless a reaction window is open for `seat`."""
    if state.phase != Phase.REACTION or state.pending[0].target != seat:
        raise WrongPhase("no reaction window is open for you")


def _react(step: Step, seat: int, command: Command) -> None:
    """Answer the attack on you with one defence card (shield, arcane barrier, mirror)."""
    s = step.state
    _window(s, seat)
    card = _in_hand(s, seat, command.get("card"))
    if kind_of(card) not in DEFENCES:
        raise NotPlayable("only a defence card answers an attack")
    attack = s.pending[0]
    step.emit(
        {"type": Ev.REACTION_PLAYED.value, "player_id": step.pid(seat), "card": card, "attack": attack.number}
    )
    if not resolve(step, attack, kind_of(card)):
        proceed(step)


def _pass(step: Step, seat: int, command: Command) -> None:
    """Let the attack on you through."""
    _window(step.state, seat)
    _let_through(step, seat, timed_out=False)


def _let_through(step: Step, seat: int, timed_out: bool) -> None:
    attack = step.state.pending[0]
    step.emit(
        {
            "type": Ev.REACTION_PASSED.value,
            "player_id": step.pid(seat),
            "attack": attack.number,
            "timed_out": timed_out,
        }
    )
    if not resolve(step, attack, None):
        proceed(step)


def _swap(step: Step, seat: int, command: Command) -> None:
    """The discard phase: discard one card to draw one, once."""
    s = step.state
    _turn(s, seat, Phase.DISCARD)
    if s.swapped:
        raise AlreadySwapped("one swap per turn")
    card = _in_hand(s, seat, command.get("card"))
    step.emit({"type": Ev.CARD_DISCARDED.value, "player_id": step.pid(seat), "card": card, "reason": "swap"})
    draw(step, seat, "swap")


def _end_turn(step: Step, seat: int, command: Command) -> None:
    """End the turn, discarding exactly the cards over 3 (`discard`: their ids, none when at most 3)."""
    s = step.state
    _turn(s, seat, Phase.DISCARD)
    cards = command.get("discard", [])
    if not isinstance(cards, list | tuple) or not all(isinstance(c, str) for c in cards):
        raise InvalidCommand("discard is a list of instance ids")
    if len(cards) != s.excess(seat) or Counter(cards) - Counter(s.hands[seat]):
        raise WrongDiscard(f"discard exactly {s.excess(seat)} card(s) of your hand")
    discard_down(step, seat, list(cards))
    next_turn(step)


def _timeout(step: Step, seat: int, command: Command) -> None:
    """System: the awaited player's time ran out. A reaction window passes; an action draws if it may and
    the turn ends; a discard phase ends the turn, the last cards over 3 discarded. Raises `NotYourTurn`
    for a player the match is not waiting for."""
    s = step.state
    if s.phase == Phase.REACTION:
        if s.pending[0].target != seat:
            raise NotYourTurn("the match is waiting for another player")
        _let_through(step, seat, timed_out=True)
        return
    if seat != s.active:
        raise NotYourTurn("the match is waiting for another player")
    step.emit(
        {"type": Ev.TURN_TIMED_OUT.value, "player_id": step.pid(seat), "turn": s.turn, "phase": s.phase}
    )
    if s.phase == Phase.ACTION and s.start_hand < HAND_LIMIT and draw(step, seat, "draw"):
        return
    hand = step.state.hands[seat]
    discard_down(step, seat, list(hand[len(hand) - step.state.excess(seat) :]))
    next_turn(step)


def _concede(step: Step, seat: int, command: Command) -> None:
    """Leave the match; the others play on."""
    leave(step, seat, LeaveReason.CONCEDE.value)


def _forfeit(step: Step, seat: int, command: Command) -> None:
    """System: the player left (120 s disconnected); the others play on."""
    reason = command.get("reason")
    if not isinstance(reason, str) or not reason:
        raise InvalidCommand("forfeit names its reason")
    leave(step, seat, reason)


_DECIDERS: dict[str, Callable[[Step, int, Command], None]] = {
    Cmd.DRAW.value: _draw,
    Cmd.PLAY.value: _play,
    Cmd.COMBO.value: _combo,
    Cmd.REACT.value: _react,
    Cmd.PASS.value: _pass,
    Cmd.SWAP.value: _swap,
    Cmd.END_TURN.value: _end_turn,
    Cmd.TIMEOUT.value: _timeout,
    Cmd.CONCEDE.value: _concede,
    Cmd.FORFEIT.value: _forfeit,
}
