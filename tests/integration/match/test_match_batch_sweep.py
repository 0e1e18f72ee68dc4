"""The sweep ticks overdue matches in batches (``usecases/batch_tick.py``): one read of all their new
events, one of their presence, one transaction for all their appends; a match that moved meanwhile
is decided again alone on a fresh read."""

from __future__ import annotations

from typing import Any

import pytest

from libs import clock
from libs.games.arcana import STARTER_DECK
from services.match.service import MatchService

MATCHES = 12


def _overdue(make_player: Any, admin: Any, count: int) -> list[tuple[Any, Any, str]]:
    """``count`` matches past their first turn's deadline (both players kept their hands)."""
    started = []
    for _ in range(count):
        alice, bob = make_player(), make_player()
        match_id = admin([alice, bob], [list(STARTER_DECK)] * 2, first=alice.id, shuffle=False)
        alice.command(match_id, {"type": "mulligan", "cards": []})
        bob.command(match_id, {"type": "mulligan", "cards": []})
        started.append((alice, bob, match_id))
    clock.advance(61)
    return started


def _types(svc: MatchService, match_id: str) -> list[str]:
    return [e.type for e in svc.matches.read_events(match_id)]


def test_one_sweep_ticks_many_overdue_matches_with_one_read_and_no_tick_of_its_own(
    make_player: Any, admin: Any, svc: MatchService, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = _overdue(make_player, admin, MATCHES)
    reads: list[int] = []
    read_many = svc.matches.events.read_many

    def counted(starts: Any, **kw: Any) -> Any:
        reads.append(len(starts))
        return read_many(starts, **kw)

    def one_by_one(match_id: str) -> int:
        raise AssertionError(f"{match_id} was ticked alone")

    monkeypatch.setattr(svc.matches.events, "read_many", counted)
    monkeypatch.setattr(svc.matches.events, "read", lambda *a, **kw: pytest.fail("a stream read on its own"))
    monkeypatch.setattr(svc.system, "tick", one_by_one)

    assert svc.sweeper.sweep() >= MATCHES
    monkeypatch.undo()
    assert reads and max(reads) >= MATCHES  # every due match in one query
    for *_, match_id in started:
        types = _types(svc, match_id)
        assert "TurnTimedOut" in types, (match_id, types)
        assert types.count("PlayerDisconnected") == 2  # both silent for 61 s: decided in the same batch


def test_a_match_that_moves_under_the_batch_is_decided_again_alone(
    make_player: Any, admin: Any, svc: MatchService, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = _overdue(make_player, admin, 3)
    alice, _, moved = started[0]
    read_many = svc.matches.events.read_many

    def then_alice_ends_her_turn(starts: Any, **kw: Any) -> Any:
        found = read_many(starts, **kw)
        monkeypatch.setattr(svc.matches.events, "read_many", read_many)
        alice.command(moved, {"type": "end_turn"})  # after the batch read, before its append
        return found

    monkeypatch.setattr(svc.matches.events, "read_many", then_alice_ends_her_turn)
    svc.sweeper.sweep()

    types = _types(svc, moved)
    assert "TurnTimedOut" not in types  # her end of turn came first; the batch's timeout lost the race
    assert types.count("PlayerDisconnected") == 1  # bob, decided again on the fresh read
    for *_, match_id in started[1:]:
        assert "TurnTimedOut" in _types(svc, match_id)
