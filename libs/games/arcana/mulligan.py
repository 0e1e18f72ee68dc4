"""The mulligan: each player returns any cards of the opening hand once; the first turn starts when both
have chosen."""

from __future__ import annotations

from libs.games.sdk import rng

from . import purposes
from .appliers import fold_onto
from .effects import drawn
from .errors import AlreadyMulliganed, CardNotInHand, InvalidCommand, WrongPhase
from .names import DECK_SHUFFLED, MULLIGAN, MULLIGAN_COMPLETED, Command, Event
from .state import State
from .turns import begin_turn


def decide_mulligan(state: State, index: int, command: Command) -> list[Event]:
    """Player `index` returns `command["cards"]`; raises `RuleViolation` (`wrong_phase`, `invalid_command`,
    `already_mulliganed`, `card_not_in_hand`)."""
    if state.phase != MULLIGAN:
        raise WrongPhase("the mulligan is over")
    returned = command.get("cards", [])
    if not isinstance(returned, list | tuple) or not all(isinstance(c, str) for c in returned):
        raise InvalidCommand("cards is a list of instance ids")
    if len(set(returned)) != len(returned):
        raise InvalidCommand("a card is named twice")
    return mulligan(state, index, list(returned))


def mulligan(state: State, index: int, returned: list[str]) -> list[Event]:
    """Draws replacing `returned`, MulliganCompleted, the reshuffle, and the first turn when the other
    player has chosen too; raises `RuleViolation` (`already_mulliganed`, `card_not_in_hand`)."""
    player = state.players[index]
    if player.mulligan_done:
        raise AlreadyMulliganed("one mulligan per player")
    for iid in returned:
        if iid not in player.hand:
            raise CardNotInHand(f"{iid} is not in your hand")
    k = len(returned)
    events = [drawn(player.id, iid, state.cards[iid].id) for iid in player.deck[:k]]
    events.append({"type": MULLIGAN_COMPLETED, "player_id": player.id, "returned": returned})
    if k and state.shuffle:
        order = list(player.deck[k:]) + returned
        rng.stream(state.seed, purposes.mulligan_purpose(index)).shuffle(order)
        events.append({"type": DECK_SHUFFLED, "player_id": player.id, "order": order})
    if state.players[1 - index].mulligan_done:
        after = fold_onto(state, events)
        events += begin_turn(after, after.first, 1)
    return events
