"""The hidden-information check, shared by the API tests and the browser tests: given a match's
stored events (``version``, ``type``, ``data`` as stored, seed and decks included), what a player
must not have seen in a response reflecting version V: an opponent's card id or instance id not
played by V, one of the player's own instance ids not drawn by V (it would give deck order away),
the seed, or a secret key. (A card id both decks hold is the player's to see: decks without
common cards make that part strict.)"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

SECRET_KEYS = {"seed", "deck", "instances", "state_hash", "spread"}  # ("order" is also a tribe)


class StoredEvent(Protocol):
    version: int
    type: str
    data: Any


def strings_and_keys(value: Any, strings: set[str], keys: set[str]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            keys.add(k)
            strings_and_keys(v, strings, keys)
    elif isinstance(value, list):
        for v in value:
            strings_and_keys(v, strings, keys)
    elif isinstance(value, str):
        strings.add(value)


def hidden_from(events: Sequence[StoredEvent], player: str, version: int) -> set[str]:
    """Ids ``player`` may not know at ``version``."""
    started = next(e.data for e in events if e.type == "MatchStarted")
    instances = {p["id"]: dict(zip(p["instances"], p["deck"], strict=True)) for p in started["players"]}
    foe = next(pid for pid in instances if pid != player)
    past = [e for e in events if e.version <= version]
    played = {e.data["card"] for e in past if e.type == "CardPlayed" and e.data["player_id"] == foe}
    played_cards = {instances[foe][i] for i in played}
    drawn = {e.data["card"] for e in past if e.type == "CardDrawn" and e.data["player_id"] == player}
    hidden = {i for i in instances[foe] if i not in played}
    own_cards = set(instances[player].values())  # a card id of both decks may be the player's own
    hidden |= {c for c in instances[foe].values() if c not in played_cards and c not in own_cards}
    hidden |= {i for i in instances[player] if i not in drawn}
    return hidden


def leaks(body: Any, player: str, version: int, events: Sequence[StoredEvent]) -> list[str]:
    """What in ``body`` (a response to ``player`` reflecting ``version``) was hidden (empty: nothing)."""
    strings: set[str] = set()
    keys: set[str] = set()
    strings_and_keys(body, strings, keys)
    found = [f"hidden id {s}" for s in sorted(strings & hidden_from(events, player, version))]
    found += [f"secret key {k}" for k in sorted(keys & SECRET_KEYS)]
    seed = str(next(e.data for e in events if e.type == "MatchStarted")["seed"])
    if seed in json.dumps(body):
        found.append("the seed")
    return found


def assert_no_leak(
    seen: Iterable[tuple[str, int, Any]],
    events: Sequence[StoredEvent],
    check: Callable[[Any, str, int, Sequence[StoredEvent]], list[str]] = leaks,
) -> int:
    """Check every (player, version, body) seen (by ``check``: Arcana's ``leaks`` unless given); the
    number checked."""
    checked = 0
    for player, version, body in seen:
        found = check(body, player, version, events)
        assert not found, f"{player} saw {found} at version {version}: {json.dumps(body)[:500]}"
        checked += 1
    return checked


# -- the arena (libs/games/arena): 2 to 4 players, one shared deck ----------------------------------------

ARENA_SECRET_KEYS = {"seed", "pile", "state_hash"}  # the pile's order, the seed, the full state's hash
SERVICE_EVENTS = {"MatchCreated", "PlayerDisconnected", "PlayerReconnected", "MatchRequestRejected"}


def arena_hidden(events: Sequence[StoredEvent], player: str) -> dict[int, set[str]]:
    """Per stored version, the card ids in the other players' hands that ``player`` may not know then
    (a card taken from the discard pile in public, or stolen from them, is known until it leaves)."""
    from libs.games.arena.appliers import evolve  # the rules, to fold the stored events

    state: Any = None
    known: set[str] = set()
    out: dict[int, set[str]] = {}
    for e in events:
        if e.type not in SERVICE_EVENTS:
            data = {k: v for k, v in e.data.items() if k != "state_hash"}
            state = evolve(state, {**data, "type": e.type})
            if e.type == "CardTaken" or (e.type == "CardStolen" and e.data["victim"] == player):
                known.add(e.data["card"])
        if state is None:
            out[e.version] = set()
            continue
        me = state.pids.index(player)
        foes = {c for seat, hand in enumerate(state.hands) if seat != me for c in hand}
        known &= foes
        out[e.version] = foes - known
    return out


def arena_leaks(
    body: Any, version: int, events: Sequence[StoredEvent], hidden: dict[int, set[str]]
) -> list[str]:
    """What in ``body`` (a response to a player reflecting ``version``; ``hidden``: their
    ``arena_hidden``) was hidden: a card in another player's hand at the version of each event it
    carries (or at ``version`` for the rest), the pile's order or the seed."""
    found: list[str] = []
    carried = body.get("events", []) if isinstance(body, dict) else []
    for e in carried:
        carried_strings: set[str] = set()
        strings_and_keys(e.get("data"), carried_strings, set())
        found += [
            f"hidden card {s} at {e['version']}" for s in sorted(carried_strings & hidden[e["version"]])
        ]
    rest = {k: v for k, v in body.items() if k != "events"} if isinstance(body, dict) else body
    strings: set[str] = set()
    keys: set[str] = set()
    strings_and_keys(body, set(), keys)
    strings_and_keys(rest, strings, set())
    found += [f"hidden card {s}" for s in sorted(strings & hidden.get(version, set()))]
    found += [f"secret key {k}" for k in sorted(keys & ARENA_SECRET_KEYS)]
    seed = str(next(e.data for e in events if e.type == "MatchStarted")["seed"])
    if seed in json.dumps(body):
        found.append("the seed")
    return found


def assert_no_arena_leak(seen: Iterable[tuple[str, int, Any]], events: Sequence[StoredEvent]) -> int:
    """Check every (player, version, body) seen of an arena match; the number checked."""
    hidden: dict[str, dict[int, set[str]]] = {}

    def check(body: Any, player: str, version: int, events: Sequence[StoredEvent]) -> list[str]:
        if player not in hidden:
            hidden[player] = arena_hidden(events, player)
        return arena_leaks(body, version, events, hidden[player])

    return assert_no_leak(seen, events, check)
