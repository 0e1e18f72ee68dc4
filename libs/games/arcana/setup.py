"""`start`: the opening events of a match from its setup (decks, seed, turn order, the arcana spread)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from libs.games.sdk import rng

from . import purposes
from .arcana import check_spread, daily_arcana, draw_spread
from .cards import validate_deck
from .constants import DECK_SIZE, DRAW, FIRST_HAND, HERO, SECOND_HAND
from .effects import drawn, revealed
from .errors import InvalidSetup
from .names import DECK_SHUFFLED, MATCH_STARTED, Event


def start(setup: Mapping[str, Any]) -> list[Event]:
    """The opening events of a match: MatchStarted, both DeckShuffled, the first ArcanaRevealed, the opening
    draws (4 for the first player, 5 for the second). The match is then in its mulligan phase.

    `setup`: `match_id`, `seed` (int), `players` (two `{"id", "deck": [20 card ids]}`), optional `first` (a
    player id), `shuffle` (default True; False keeps the deck lists' order, top first, also for the mulligan,
    which then puts returned cards at the bottom), `arcana` (6 ids in spread order), `date` (an ISO date
    string or `datetime.date`: its ascendant replaces one draw of its phase; ignored when `arcana` is given).
    Raises `RuleViolation`: `invalid_deck` for an illegal deck, `invalid_arcana` for a bad spread,
    `invalid_setup` for anything else.
    """
    match_id, seed, players = _checked_setup(setup)
    pids = [p["id"] for p in players]
    first_index = _first_index(setup, seed, pids)
    shuffle = setup.get("shuffle", True)
    if not isinstance(shuffle, bool):
        raise InvalidSetup("shuffle is a bool")
    spread = _spread(setup, seed)
    numbers = rng.stream(seed, purposes.INSTANCE_IDS).sample(range(1, 2 * DECK_SIZE + 1), 2 * DECK_SIZE)
    instances = [[f"c{n}" for n in numbers[i * DECK_SIZE : (i + 1) * DECK_SIZE]] for i in range(2)]
    orders = [list(ids) for ids in instances]
    if shuffle:
        for i, order in enumerate(orders):
            rng.stream(seed, purposes.deck_purpose(i)).shuffle(order)
    events: list[Event] = [
        {
            "type": MATCH_STARTED,
            "match_id": match_id,
            "seed": seed,
            "players": [
                {"id": pids[i], "deck": list(players[i]["deck"]), "instances": instances[i]} for i in (0, 1)
            ],
            "first": pids[first_index],
            "arcana": list(spread),
            "shuffle": shuffle,
        },
        {"type": DECK_SHUFFLED, "player_id": pids[0], "order": orders[0]},
        {"type": DECK_SHUFFLED, "player_id": pids[1], "order": orders[1]},
        revealed(spread, 0, 1),
    ]
    cards = {iid: c for i in (0, 1) for iid, c in zip(instances[i], players[i]["deck"], strict=True)}
    for i, n in ((first_index, FIRST_HAND), (1 - first_index, SECOND_HAND)):
        events += [drawn(pids[i], iid, cards[iid]) for iid in orders[i][:n]]
    return events


def _checked_setup(setup: Any) -> tuple[str, int, Any]:
    """The match id, seed and players of a well-formed setup with legal decks; raises `RuleViolation`
    (`invalid_setup`, `invalid_deck`) otherwise."""
    if not isinstance(setup, Mapping):
        raise InvalidSetup("setup is a mapping")
    match_id, seed, players = setup.get("match_id"), setup.get("seed"), setup.get("players")
    if not isinstance(match_id, str) or not match_id:
        raise InvalidSetup("match_id is a non-empty string")
    if type(seed) is not int:
        raise InvalidSetup("seed is an int")
    if (
        not isinstance(players, list | tuple)
        or len(players) != 2
        or not all(isinstance(p, Mapping) for p in players)
    ):
        raise InvalidSetup("players is a list of two {id, deck}")
    pids = [p.get("id") for p in players]
    if not all(isinstance(pid, str) and pid for pid in pids) or pids[0] == pids[1]:
        raise InvalidSetup("player ids are two distinct non-empty strings")
    # "hero" is an attack target and "draw" a MatchEnded winner: a player so named would be ambiguous
    if HERO in pids or DRAW in pids:
        raise InvalidSetup(f"a player id is neither {HERO!r} nor {DRAW!r}")
    for p in players:
        validate_deck(p.get("deck"))
    return match_id, seed, players


def _first_index(setup: Mapping[str, Any], seed: int, pids: list[str]) -> int:
    """Who plays first: the setup's `first`, else drawn from the seed; raises `RuleViolation`
    (`invalid_setup`) for a `first` not in the match."""
    first = setup.get("first")
    if first is None:
        return rng.stream(seed, purposes.TURN_ORDER).randrange(2)
    if first in pids:
        return pids.index(first)
    raise InvalidSetup(f"first player {first!r} is not in the match")


def _spread(setup: Mapping[str, Any], seed: int) -> tuple[str, ...]:
    """The setup's explicit arcana, checked, else six drawn from the seed (with the ascendant of `date`);
    raises `RuleViolation` (`invalid_arcana`, `invalid_setup` for a bad date)."""
    if setup.get("arcana") is not None:
        return check_spread(setup["arcana"])
    date = setup.get("date")
    try:
        ascendant = None if date is None else daily_arcana(str(date))
    except (TypeError, ValueError):
        raise InvalidSetup(f"date {date!r} is not an ISO date") from None
    return draw_spread(rng.stream(seed, purposes.ARCANA), ascendant)
