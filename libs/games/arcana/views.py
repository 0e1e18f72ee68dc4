"""What a player may see: `view` of a state, `visible_event` of an event, and `summary_stats`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .arcana import rounds_left
from .board import attacks, cost_of, is_early
from .state import PlayerState, State


def view(state: State, player_id: str) -> dict[str, Any]:
    """The match as `player_id` sees it: their own hand, both boards, heroes, mana, counts, turn and arcana.

    Never the opponent's hand, any deck order, the arcana still face down, or the seed. `mulligan_done` per
    side and `phase`/`active_player` are what the match service needs for its deadlines. Raises ValueError
    for a player not in the match.
    """
    index = state.index(player_id)
    me, foe = state.players[index], state.players[1 - index]
    playing = state.phase == "playing"
    arcana = state.arcana
    you = _side(state, me, playing and state.active == index)
    you["hand"] = [
        {"id": iid, "card_id": state.cards[iid].id, "cost": cost_of(state, state.cards[iid])}
        for iid in me.hand
    ]
    opponent = _side(state, foe, False)
    return {
        "match_id": state.match_id,
        "phase": state.phase,
        "turn": state.turn,
        "round": state.round,
        "active_player": state.pids[state.active] if playing else None,
        "winner": state.winner,
        "reason": state.reason,
        "arcana": {
            "current": arcana.id if arcana else None,
            "phase": arcana.phase if arcana else None,
            "rounds_left": rounds_left(state.round),
            "revealed": list(state.spread[: state.revealed]),
        },
        "you": you,
        "opponent": opponent,
    }


def _side(state: State, p: PlayerState, active: bool) -> dict[str, Any]:
    turn = state.turn
    powers = attacks(p.board, is_early(state))
    board = [
        {
            "id": u.id,
            "card_id": u.card.id,
            "attack": power,
            "health": u.health,
            "max_health": u.max_health,
            "keyword": u.card.keyword,
            "ability": u.card.ability,
            "ward": u.ward,
            "can_attack": active
            and power > 0
            and u.attacked_turn != turn
            and (u.played_turn != turn or u.card.keyword == "rush"),
        }
        for u, power in zip(p.board, powers, strict=True)
    ]
    return {
        "id": p.id,
        "hero_health": p.hero,
        "mana": p.mana,
        "max_mana": p.max_mana,
        "deck_count": len(p.deck),
        "hand_count": len(p.hand),
        "timeouts": p.timeouts,
        "mulligan_done": p.mulligan_done,
        "board": board,
    }


_SECRET = frozenset({"DeckShuffled"})


def visible_event(event: Mapping[str, Any], player_id: str) -> dict[str, Any] | None:
    """`event` as `player_id` may see it, or None when it is wholly secret (a deck order).

    MatchStarted loses the seed, the decks and the arcana spread; the opponent's CardDrawn keeps only the
    player; the opponent's MulliganCompleted only the number of cards returned. Everything else is public.
    """
    kind = event.get("type")
    if kind in _SECRET:
        return None
    if kind == "MatchStarted":
        return {
            "type": kind,
            "match_id": event["match_id"],
            "players": [p["id"] for p in event["players"]],
            "first": event["first"],
        }
    if kind == "CardDrawn" and event["player_id"] != player_id:
        return {"type": kind, "player_id": event["player_id"]}
    if kind == "MulliganCompleted" and event["player_id"] != player_id:
        return {"type": kind, "player_id": event["player_id"], "count": len(event["returned"])}
    return dict(event)


def summary_stats(state: State) -> dict[str, Any]:
    """What the match did, per player, for quests and analysts (the MatchEnded integration event carries it).

    `units_played` by tribe ("none" for tribeless), `spells_cast`, `hero_damage` (damage dealt to the enemy
    hero by units and spells; drains excluded), `cards_drawn` (opening hand and mulligan included),
    `units_killed` (enemy units that died), `turns` (turns the player started), `went_first` (whether
    the player had the first turn); plus the match's `turn` and
    `round` reached, `winner` and `reason`.
    """
    return {
        "turn": state.turn,
        "round": state.round,
        "winner": state.winner,
        "reason": state.reason,
        "players": {
            p.id: {
                "units_played": dict(sorted(p.units_played.items())),
                "spells_cast": p.spells_cast,
                "hero_damage": p.hero_damage,
                "cards_drawn": p.cards_drawn,
                "units_killed": p.units_killed,
                "turns": p.turns,
                "went_first": p.id == state.pids[state.first],
            }
            for p in state.players
        },
    }
