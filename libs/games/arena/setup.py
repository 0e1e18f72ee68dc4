"""`start`: the opening events of a match: MatchStarted, then round 1 (shuffle, deal, the first turn)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from libs.games.sdk.plumbing import setup_fields
from libs.games.sdk.rng import pick

from .appliers import evolve
from .constants import SEATS, Ev
from .errors import InvalidSetup
from .flow import Event, Step, start_round

FIRST_PLAYER = "arena:first"  # the purpose whose pick from the seed is round 1's first player


def start(setup: Mapping[str, Any]) -> list[Event]:
    """MatchStarted, RoundStarted (the shuffled pile), the deal (2 cards each) and the first TurnStarted.

    `setup`: `match_id`, `seed` (int), `players` (2 to 4 `{"id"}`, ids distinct; a `deck` is ignored: the
    16 cards are shared), optional `first` (a player id; default: drawn from the seed). Raises `InvalidSetup`.
    """
    match_id, seed, _, pids = setup_fields(setup, SEATS, InvalidSetup)
    first = setup.get("first")
    if first is None:
        first = pids[pick(seed, FIRST_PLAYER, len(pids))]
    elif first not in pids:
        raise InvalidSetup(f"first player {first!r} is not in the match")
    opening = {
        "type": Ev.MATCH_STARTED.value,
        "match_id": match_id,
        "seed": seed,
        "players": pids,
        "first": first,
    }
    step = Step(evolve(None, opening))
    step.events.append(opening)
    start_round(step)
    return step.events
