"""A check any ``Game`` must pass, for each game's tests: play a match to its end and verify the
interface's promises on the way (pure; raises AssertionError with what broke).

- every legal command of every awaited player is accepted by ``decide`` (a sample of them);
- ``decide`` never changes the state it is given (its hash is unchanged);
- folding all the events from scratch gives the same state as evolving them one by one;
- each ``Wait``'s ``timeout`` is accepted when it is due, and names the awaited player;
- no event names a player ``player``: the acting player is ``player_id`` (docs/events.md, "Naming
  the player"; commands keep ``player``);
- a player's view and each event's visible forms are JSON-able dicts;
- a snapshot (when the game keeps them) restores the state it was made of, through JSON (every
  ``SNAPSHOT_STEPS`` steps and at the end);
- once ``result`` is not None nothing waits, placements hold every seated player once, and the
  last event is ``MatchEnded``.
"""

from __future__ import annotations

import json
import random
from typing import Any

from libs.games import END_EVENT, Game, IllegalCommand, Setup

SAMPLE = 5  # legal commands tried per step besides the one played
SNAPSHOT_STEPS = 10  # a snapshot's round trip checked every this many steps


def play_out(game: Game, setup: Setup, rng: random.Random, max_steps: int = 2000) -> list[dict[str, Any]]:
    """Play ``setup`` to its end with random legal commands, timeouts now and then; returns every
    event. Raises AssertionError when the game breaks a promise of the interface."""
    events = _named(list(game.setup(setup)))
    state = _fold(game, None, events)
    for step in range(max_steps):
        if game.result(state) is not None:
            break
        if step % SNAPSHOT_STEPS == 0:
            _check_snapshot(game, state)
        waits = game.waits(state)
        assert waits, "a running match waits for someone"
        wait = waits[0]
        assert wait.player in game.seated(state)
        before = game.state_hash(state)  # every decide below must leave it so
        _check_views(game, state, events)
        if wait.timeout is not None and rng.random() < 0.1:
            assert wait.timeout.get("player") == wait.player, "a timeout names the awaited player"
            command: dict[str, Any] = wait.timeout
        else:
            legal = game.legal_commands(state, wait.player)
            if not legal:
                assert wait.timeout is not None, "an awaited player with no legal command has a timeout"
                command = wait.timeout
            else:
                for other in rng.sample(legal, min(SAMPLE, len(legal))):
                    _accepted(game, state, before, {**other, "player": wait.player})
                command = {**rng.choice(legal), "player": wait.player}
        new = _accepted(game, state, before, command)
        events += new
        state = _fold(game, state, new)
    ended = game.result(state)
    assert ended is not None, f"no end within {max_steps} steps"
    assert game.waits(state) == [], "an ended match waits for nobody"
    placed = [p for group in ended.placements for p in group]
    assert sorted(placed) == sorted(game.seated(state)), "placements hold every player once"
    assert events[-1]["type"] == END_EVENT
    replayed = _fold(game, None, events)
    assert game.state_hash(replayed) == game.state_hash(state), "replay gives the same state"
    _check_snapshot(game, state)
    return events


def _check_snapshot(game: Game, state: Any) -> None:
    kept = game.snapshot(state)
    if kept is None:
        return
    restored = game.restore(json.loads(json.dumps(kept)))
    assert restored == state, "a snapshot restores the state it was made of"
    assert game.state_hash(restored) == game.state_hash(state)


def _accepted(game: Game, state: Any, before: str, command: dict[str, Any]) -> list[dict[str, Any]]:
    """The events of an accepted `command`; `before` is the hash of `state`, which decide keeps."""
    try:
        new = game.decide(state, command)
    except IllegalCommand as exc:
        raise AssertionError(f"{command} refused ({exc.code}: {exc.message})") from None
    assert game.state_hash(state) == before, "decide changed its input state"
    assert new and all(isinstance(e.get("type"), str) for e in new)
    return _named(new)


def _named(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = [e["type"] for e in events if "player" in e]
    assert not found, f"{found}: an event names its player `player_id`, never `player`"
    return events


def _fold(game: Game, state: Any, events: list[dict[str, Any]]) -> Any:
    for e in events:
        state = game.evolve(state, e)
    return state


def _check_views(game: Game, state: Any, events: list[dict[str, Any]]) -> None:
    for player in game.seated(state):
        json.dumps(game.view(state, player))
        json.dumps([game.visible_event(e, player) for e in events[-5:]])
    json.dumps([game.visible_event(e, None) for e in events[-5:]])
