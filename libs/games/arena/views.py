"""What a viewer may see: `view` of a state, `visible_event`, the `waits` (who the match waits for, how
long, and the system command when the time runs out) and the `result`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from .cards import kind_of
from .constants import HAND_LIMIT, REACTION_SECONDS, TURN_SECONDS, Ev, Phase
from .state import State


@dataclass(frozen=True, slots=True)
class Waiting:
    """The match waits for `player`; `key` names this wait (a new key, a new timer), `seconds` its length,
    `timeout` the system command `decide` takes when it runs out."""

    player: str
    key: str
    seconds: int
    timeout: dict[str, Any]


def waits(state: State) -> list[Waiting]:
    """Whom the match waits for: the attacked player in a reaction window (10 s, then a pass), else the
    active player (60 s for the action, then a draw if allowed and the turn ends; 60 s again for the
    discard phase, then the turn ends). Empty once ended."""
    if state.ended:
        return []
    if state.phase == Phase.REACTION:
        attack = state.pending[0]
        player = state.pids[attack.target]
        key, seconds = f"reaction:{attack.number}", REACTION_SECONDS
    else:
        player = state.pids[state.active]
        key, seconds = f"{state.phase}:{state.turn}", TURN_SECONDS
    return [Waiting(player, key, seconds, {"type": "timeout", "player": player})]


def _card(card: str) -> dict[str, str]:
    return {"id": card, "card": kind_of(card)}


def view(state: State, viewer: str) -> dict[str, Any]:
    """The match as `viewer` (a seated player) sees it: their own hand only; every hand's count, life,
    rounds won and wards; the pile's count, the discard pile and the removed cards face up; the open attack
    and who the match waits for. Raises ValueError for a viewer not seated."""
    me = state.seat(viewer)
    attack = state.pending[0] if state.phase == Phase.REACTION else None
    return {
        "game": "arena",
        "match_id": state.match_id,
        "round": state.round,
        "turn": state.turn,
        "phase": state.phase,
        "active": state.pids[state.active] if not state.ended else None,
        "seats": [  # not `players`: the match service's field of the ids, which a view must not shadow
            {
                "id": pid,
                "life": state.life[seat],
                "wins": state.wins[seat],
                "hand_count": len(state.hands[seat]),
                "in_round": state.in_round[seat],
                "in_match": state.in_match[seat],
                "wards": sorted(state.wards[seat]),
            }
            for seat, pid in enumerate(state.pids)
        ],
        "hand": [_card(c) for c in state.hands[me]],
        "can_draw": state.phase == Phase.ACTION and seat_may_draw(state, me),
        "pile_count": len(state.pile),
        "discard": [_card(c) for c in state.discard],
        "removed": [_card(c) for c in state.removed],
        "attack": None
        if attack is None
        else {
            "attacker": state.pids[attack.attacker],
            "target": state.pids[attack.target],
            "damage": attack.damage,
            "source": attack.source,
        },
        "waiting": [{"player": w.player, "key": w.key, "seconds": w.seconds} for w in waits(state)],
        "winner": state.winner,
        "placements": [list(group) for group in state.placements],
    }


def seat_may_draw(state: State, seat: int) -> bool:
    return seat == state.active and state.start_hand < HAND_LIMIT


def visible_event(event: Mapping[str, Any], viewer: str | None) -> dict[str, Any]:
    """`event` as `viewer` may see it (None: anyone, the public form). Hidden: the seed, the pile's order
    (a count instead), a drawn card but to its drawer, a stolen card but to the thief and the victim."""
    kind = event.get("type")
    if kind == Ev.MATCH_STARTED:
        return {k: v for k, v in event.items() if k != "seed"}
    if kind in (Ev.ROUND_STARTED, Ev.PILE_REBUILT):
        return {**{k: v for k, v in event.items() if k != "pile"}, "pile_count": len(event["pile"])}
    if kind == Ev.CARD_DRAWN and viewer != event["player_id"]:
        return {k: v for k, v in event.items() if k != "card"}
    if kind == Ev.CARD_STOLEN and viewer not in (event["player_id"], event["victim"]):
        return {k: v for k, v in event.items() if k != "card"}
    return dict(event)


def result(state: State) -> dict[str, Any] | None:
    """How the match ended (None while it runs): winner, reason, placements best first (ties share a
    group), turns and rounds played, and per player the counters of `Stats`, rounds won and whether they
    left."""
    if not state.ended:
        return None
    return {
        "winner": state.winner,
        "reason": state.reason,
        "placements": [list(group) for group in state.placements],
        "turns": state.turn,
        "round": state.round,
        "players": {
            pid: {**asdict(state.stats[seat]), "rounds_won": state.wins[seat], "left": pid in state.left}
            for seat, pid in enumerate(state.pids)
        },
    }
