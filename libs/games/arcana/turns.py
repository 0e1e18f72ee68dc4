"""Turn flow: whose turn it is, ending a turn, and a turn's start (the arcana rotating every two rounds,
an ending arcana's drain, mana, the draw)."""

from __future__ import annotations

from .arcana import ARCANA, drain_amount, spread_index
from .constants import MAX_MANA, EndReason
from .effects import drawn, ended, revealed
from .errors import NotYourTurn, WrongPhase
from .names import HERO_DRAINED, MANA_REFILLED, PLAYING, TURN_ENDED, TURN_STARTED, Command, Event
from .state import State


def require_turn(state: State, index: int) -> None:
    """Raises `RuleViolation` (`wrong_phase`, `not_your_turn`) unless it is player `index`'s turn."""
    if state.phase != PLAYING:
        raise WrongPhase(f"not during the {state.phase}")
    if index != state.active:
        raise NotYourTurn("it is the opponent's turn")


def decide_end_turn(state: State, index: int, command: Command) -> list[Event]:
    """TurnEnded, then the opponent's turn starts; raises `RuleViolation` unless it is `index`'s turn."""
    require_turn(state, index)
    turn_ended = {"type": TURN_ENDED, "player_id": state.pids[index], "timed_out": False}
    return [turn_ended, *begin_turn(state, 1 - index, state.turn + 1)]


def begin_turn(state: State, index: int, turn: int) -> list[Event]:
    """Turn start: at a round start the next arcana (every 2 rounds) and an ending arcana's drain; then mana
    +1 (cap 10) refilled, and a draw (none from an empty deck). Units need no readying (see `Unit`)."""
    player = state.players[index]
    round_ = (turn + 1) // 2
    events: list[Event] = [{"type": TURN_STARTED, "player_id": player.id, "turn": turn, "round": round_}]
    if turn % 2 == 1 and round_ > 1:
        arcana_events, over = _round_start(state, round_)
        events += arcana_events
        if over:
            return events
    mana = min(MAX_MANA, player.max_mana + 1)
    events.append({"type": MANA_REFILLED, "player_id": player.id, "max_mana": mana, "mana": mana})
    if player.deck:
        events.append(drawn(player.id, player.deck[0], state.cards[player.deck[0]].id))
    return events


def _round_start(state: State, round_: int) -> tuple[list[Event], bool]:
    """A round's arcana events (the next arcana when its time comes, an ending arcana's drain and the
    MatchEnded a drain causes), and whether the match ended."""
    events: list[Event] = []
    shown = spread_index(round_)
    if shown >= state.revealed:
        events.append(revealed(state.spread, shown, round_))
    arcana = ARCANA[state.spread[shown]]
    drain = drain_amount(arcana, round_)
    if not drain:
        return events, False
    events.append({"type": HERO_DRAINED, "arcana": arcana.id, "amount": drain, "round": round_})
    low = [p.hero <= drain for p in state.players]
    if all(low):
        return [*events, ended(EndReason.DRAW.value, EndReason.DRAW.value)], True
    if any(low):
        return [*events, ended(state.pids[low.index(False)], EndReason.HERO_KILLED.value)], True
    return events, False
