"""A match's snapshot gives back exactly the match: for every game, at every step of random matches
played by bots (timeouts and presence changes now and then), ``restore(snapshot(m)) == m`` through
JSON, with the same game state hash; a snapshot of another shape is ignored."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from libs.games import registry
from services.match import domain
from services.match.domain import snapshots

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
GAMES = ("arcana", "line", "arena")


def _round_trip(m: domain.Match) -> domain.Match | None:
    kept = domain.snapshot_match(m)
    assert kept is not None
    return domain.restore_match(json.loads(json.dumps(kept)))  # as the JSONB column gives it back


def _played(game_name: str, seed: int) -> list[domain.Match]:
    """Every match state on the way through a random bot-played match of ``game_name``."""
    registry.load()
    game = registry.get(game_name)
    rng = random.Random(seed)
    seats = rng.choice(sorted(game.seats))
    players = [{"id": f"p{i}", "deck": list(game.starter_deck)} for i in range(seats)]
    opening = domain.open_match(f"m{seed}", "casual", players, seed, "2026-12-01", game=game_name)
    at, version, seen = T0, 0, []
    m: domain.Match | None = None

    def store(kind: str, data: dict[str, Any]) -> domain.Match:
        nonlocal at, version
        at, version = at + timedelta(seconds=rng.randint(0, 40)), version + 1
        return domain.evolve_match(m, kind, data, at, version)

    for kind, data in opening.events:
        m = store(kind, data)
        seen.append(m)
    assert m is not None
    for _ in range(3000):
        if m.ended:
            break
        wait = domain.waits(m)[0]
        if rng.random() < 0.05:
            m = store(domain.PLAYER_DISCONNECTED, {"player_id": wait.player, "since": at.isoformat()})
        elif m.disconnected and rng.random() < 0.3:
            m = store(domain.PLAYER_RECONNECTED, {"player_id": next(iter(m.disconnected))})
        else:
            command = game.bot(m.rules, wait.player, rng)
            if command is None or (wait.timeout is not None and rng.random() < 0.05):
                command = wait.timeout
            assert command is not None
            for event in game.decide(m.rules, command):
                m = store(event["type"], event)
        seen.append(m)
    assert m.ended
    return seen


@pytest.mark.parametrize("game_name", GAMES)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_restoring_a_snapshot_gives_back_the_match_at_every_step(game_name: str, seed: int) -> None:
    for m in _played(game_name, seed):
        restored = _round_trip(m)
        assert restored == m
        if m.rules is not None:
            game = domain.game_of(m)
            assert restored is not None and game.state_hash(restored.rules) == game.state_hash(m.rules)


def test_a_snapshot_of_another_shape_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    m = _played("arcana", 5)[-1]
    kept = domain.snapshot_match(m)
    assert kept is not None and domain.restore_match(kept) == m
    monkeypatch.setattr(snapshots, "SHAPE", snapshots.SHAPE + 1)
    assert domain.restore_match(kept) is None
    monkeypatch.setattr(snapshots, "SHAPE", snapshots.SHAPE - 1)
    monkeypatch.setattr(type(registry.get("arcana")), "snapshot_shape", 99)
    assert domain.restore_match(kept) is None
    assert domain.restore_match({**kept, "match": {**kept["match"], "game": "chess"}}) is None
