"""`start`: a fight's setup checked, its links baked, and the whole fight resolved into events."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from libs.games.sdk.plumbing import setup_fields
from libs.games.sdk.rng import pick

from .catalog import CATALOG, validate_line
from .constants import RULES_VERSION, RULES_VERSIONS, SEATS, Ev
from .errors import InvalidSetup
from .links import ActiveLink, Fighter, active_links, bake
from .resolution import Event, ended, play
from .state import State

FIRST_SIDE = "line:first"  # the purpose whose pick from the seed is the side acting first in round 1


def start(setup: Mapping[str, Any]) -> list[Event]:
    """The events of a whole fight: FightStarted (lines, links, the stats they bake, the first side),
    then every round's hits, deaths and heals, then MatchEnded. There are no turns: nothing is left to
    decide afterwards.

    `setup`: `match_id`, `seed` (int), `players` (two `{"id", "deck": [five card ids]}`, ids distinct),
    optional `first` (a player id; default: drawn from the seed), optional `rules` (the rules version,
    default `RULES_VERSION`; written in FightStarted unless it is 1, which is how fights before it were
    recorded). Raises `InvalidSetup` for a malformed
    setup and `InvalidLine` for a deck that is not five different catalog cards.
    """
    return fight(setup)[0]


def fight(setup: Mapping[str, Any]) -> tuple[list[Event], State]:
    """`start`'s events and the state they lead to, as the resolution computed it (raises as `start`)."""
    event, opening = fight_started(setup)
    events, out = play(opening.pids, opening.first, opening.fighters)
    return [event, *events], ended(opening, out, (event, *events))


@functools.lru_cache(maxsize=4096)
def baked(line: tuple[str, ...], rules: int) -> tuple[tuple[ActiveLink, ...], tuple[Fighter, ...]]:
    """A valid line's links and the fighters they bake, remembered for the lines that fight again (a
    player keeps a line for many fights; a bracket's, a simulation's lines meet again and again): both
    are immutable records."""
    cards = [CATALOG[c] for c in line]
    links = active_links(cards, rules)
    return tuple(links), bake(cards, links)


def fight_started(setup: Mapping[str, Any]) -> tuple[Event, State]:
    """The FightStarted event of a setup and the state it opens (raises as `start`)."""
    match_id, seed, players, pids = setup_fields(setup, SEATS, InvalidSetup)
    first = setup.get("first")
    if first is None:
        first = pids[pick(seed, FIRST_SIDE, 2)]
    elif first not in pids:
        raise InvalidSetup(f"first player {first!r} is not in the fight")
    rules = setup.get("rules", RULES_VERSION)
    if type(rules) is not int or rules not in RULES_VERSIONS:
        raise InvalidSetup(f"rules version {rules!r} is not one of {list(RULES_VERSIONS)}")
    lines = [validate_line(p.get("deck")) for p in players]
    links, fighters = zip(*(baked(line, rules) for line in lines), strict=True)
    event = {
        "type": Ev.FIGHT_STARTED.value,
        "match_id": match_id,
        "seed": seed,
        "first": first,
        "players": [
            {
                "id": pids[i],
                "line": list(lines[i]),
                "links": [link.to_dict() for link in links[i]],
                "fighters": [f.to_dict() for f in fighters[i]],
            }
            for i in (0, 1)
        ],
    }
    if rules != 1:
        event["rules"] = rules
    state = State(
        match_id=match_id,
        seed=seed,
        pids=(pids[0], pids[1]),
        first=pids.index(first),
        lines=(lines[0], lines[1]),
        fighters=(fighters[0], fighters[1]),
        links=(links[0], links[1]),
        hp=(tuple(f.hp for f in fighters[0]), tuple(f.hp for f in fighters[1])),
        record=(event,),
        rules=rules,
    )
    return event, state
