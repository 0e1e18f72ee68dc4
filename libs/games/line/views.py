"""What a viewer may see: `view` of a state, `visible_event`, the round-by-round `combat_log`, `result`.

The only secret of a fight is its seed (which side began is in FightStarted already): everything else is
public, so views differ only in whose side is "you".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .constants import Ev
from .state import State


def visible_event(event: Mapping[str, Any], viewer: str | None = None) -> dict[str, Any]:
    """`event` as anyone may see it: FightStarted without the seed, every other event whole."""
    if event.get("type") == Ev.FIGHT_STARTED:
        return {k: v for k, v in event.items() if k != "seed"}
    return dict(event)


def _sides(state: State, viewer: str) -> tuple[int, int]:
    me = state.side(viewer)
    return me, 1 - me


def view(state: State, viewer: str) -> dict[str, Any]:
    """The fight as `viewer` (one of its players) sees it: both lines with links, stats and current HP,
    the round, the round-by-round `log` (`combat_log`) and the result once ended. Raises ValueError for a
    viewer not in the fight."""
    me, foe = _sides(state, viewer)
    return {
        "game": "line",
        "match_id": state.match_id,
        "first": state.pids[state.first],
        "round": state.round,
        "ended": state.ended,
        "you": _side_view(state, me),
        "opponent": _side_view(state, foe),
        "log": combat_log(state.record, viewer),
        "result": result(state) if state.ended else None,
    }


def _side_view(state: State, side: int) -> dict[str, Any]:
    return {
        "player": state.pids[side],
        "line": list(state.lines[side]),
        "links": [
            {"id": link.id, "tier": link.tier, "slots": list(link.slots)} for link in state.links[side]
        ],
        "cards": [
            {
                "slot": slot,
                "card_id": f.card_id,
                "roles": list(f.roles),
                "atk": f.atk,
                "arm": f.arm,
                "max_hp": f.hp,
                "hp": state.hp[side][slot],
            }
            for slot, f in enumerate(state.fighters[side])
        ],
    }


def result(state: State) -> dict[str, Any]:
    """How the fight ended and what each side did: placements (winner first), reason, tie-break, score,
    and per player its score, living cards, hits, damage, kills, HP healed, links and whether it began."""
    return {
        "winner": state.winner,
        "loser": state.loser,
        "placements": [state.winner, state.loser] if state.ended else [],
        "reason": state.reason,
        "tie_break": state.tie_break,
        "score": state.score,
        "round": state.round,
        "players": {
            pid: {
                "score": state.score if pid == state.winner else 0,
                "living": state.living(side),
                "hits": state.hits[side],
                "damage": state.damage[side],
                "kills": state.kills[side],
                "healed": state.healed[side],
                "links": [link.id for link in state.links[side]],
                "went_first": side == state.first,
            }
            for side, pid in enumerate(state.pids)
        },
    }


def combat_log(events: Iterable[Mapping[str, Any]], viewer: str) -> dict[str, Any]:
    """The fight round by round as `viewer` sees it, for a client to animate: each round's first side,
    ramp and heal, then its actions in order (hits and heals, each with the target's HP after it and
    whether it fell), then the end. Sides are "you" and "opponent". Raises ValueError for a viewer not
    in the fight, or events that do not start with FightStarted."""
    it = iter(events)
    opening = next(it, None)
    if opening is None or opening.get("type") != Ev.FIGHT_STARTED:
        raise ValueError("a combat log starts at FightStarted")
    pids = [p["id"] for p in opening["players"]]
    if viewer not in pids:
        raise ValueError(f"{viewer!r} is not a player of this fight")
    who = {viewer: "you", pids[1 - pids.index(viewer)]: "opponent"}
    hp = {p["id"]: [f["hp"] for f in p["fighters"]] for p in opening["players"]}
    rounds: list[dict[str, Any]] = []
    end: dict[str, Any] | None = None
    for e in it:
        kind = e["type"]
        if kind == Ev.ROUND_STARTED:
            rounds.append(
                {
                    "round": e["round"],
                    "first": who[e["first"]],
                    "ramp": e["ramp"],
                    "heal": e["heal"],
                    "actions": [],
                }
            )
        elif kind == Ev.CARD_HIT:
            row = hp[e["target_player"]]
            row[e["target"]] = max(0, row[e["target"]] - e["damage"])
            rounds[-1]["actions"].append(
                {
                    "action": "hit",
                    "by": who[e["player_id"]],
                    "slot": e["slot"],
                    "target": e["target"],
                    "hit": e["hit"],
                    "damage": e["damage"],
                    "hp": row[e["target"]],
                    "fell": row[e["target"]] == 0,
                }
            )
        elif kind == Ev.CARD_HEALED:
            row = hp[e["player_id"]]
            row[e["target"]] += e["amount"]
            rounds[-1]["actions"].append(
                {
                    "action": "heal",
                    "by": who[e["player_id"]],
                    "slot": e["slot"],
                    "target": e["target"],
                    "amount": e["amount"],
                    "hp": row[e["target"]],
                }
            )
        elif kind == Ev.MATCH_ENDED:
            end = {
                "winner": who[e["winner"]],
                "reason": e["reason"],
                "tie_break": e["tie_break"],
                "score": e["score"],
                "round": e["round"],
            }
    return {
        "you": viewer,
        "opponent": pids[1 - pids.index(viewer)],
        "lines": {who[p["id"]]: [visible_fighter(f) for f in p["fighters"]] for p in opening["players"]},
        "links": {who[p["id"]]: [x["id"] for x in p["links"]] for p in opening["players"]},
        "first": who[opening["first"]],
        "rounds": rounds,
        "end": end,
    }


def visible_fighter(f: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "card_id": f["card_id"],
        "roles": list(f["roles"]),
        "atk": f["atk"],
        "arm": f["arm"],
        "hp": f["hp"],
    }
