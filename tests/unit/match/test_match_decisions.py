"""A decision folds the rules once: ``fold_decided`` (the match after an append, from the rules state
the decision computed for its hash) equals folding the stored batch again; and the service's events,
now built through their declared dataclasses, keep the keys, order and values they were stored with."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from libs.games.arcana import STARTER_DECK, evolve
from libs.games.arcana.bots import greedy_bot
from libs.games.arcana.game import GAME
from services.match import domain

T0 = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
A, B = "alice", "bob"
PLAYERS = [{"id": A, "deck": list(STARTER_DECK)}, {"id": B, "deck": list(STARTER_DECK)}]


def _rows(events: list[domain.Event], at: datetime, start: int) -> list[domain.Row]:
    return [(kind, data, at, start + i) for i, (kind, data) in enumerate(events)]


def _opened(seed: int = 9) -> tuple[domain.Decision, domain.Match]:
    decision = domain.open_match("m1", "casual", PLAYERS, seed, "2026-01-05", options={"first": A})
    return decision, domain.fold_decided(None, _rows(decision.events, T0, 1), decision.rules)


def _step(m: domain.Match, decision: domain.Decision, at: datetime) -> tuple[domain.Match, domain.Match]:
    """The match after ``decision`` both ways: from the decided rules state, and folded again."""
    rows = _rows(decision.events, at, m.version + 1)
    return domain.fold_decided(m, rows, decision.rules), domain.fold_match(rows, m)


def test_open_match_gives_the_match_folding_its_events_gives() -> None:
    decision, m = _opened()
    assert m == domain.fold_match(_rows(decision.events, T0, 1))
    assert decision.events == domain.new_match_events(
        "m1", "casual", PLAYERS, 9, "2026-01-05", options={"first": A}
    )


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=2**40), st.integers(min_value=0, max_value=10**6))
def test_fold_decided_equals_folding_the_batch_again(seed: int, bot_seed: int) -> None:
    _, m = _opened(seed)
    rng = random.Random(bot_seed)
    at = T0
    for step in range(60):
        waiting = domain.awaiting(m)
        if not waiting:
            break
        at += timedelta(seconds=5)
        player = waiting[0]
        if step % 7 == 3 and player not in m.disconnected:  # presence events in between
            gone = domain.decide_match(m, {"type": "disconnect", "player": player, "since": at.isoformat()})
            assert gone.rules is None
            m, again = _step(m, gone, at)
            assert m == again
        command = greedy_bot(m.rules, player, rng)  # type: ignore[arg-type]
        assert command is not None
        command.pop("player")
        m, again = _step(m, domain.decide_for(m, player, command), at)
        assert m == again and player not in m.disconnected


def test_a_command_evolves_the_rules_once_per_event(monkeypatch: pytest.MonkeyPatch) -> None:
    _, m = _opened()
    for player in (A, B):
        m, _ = _step(m, domain.decide_for(m, player, {"type": "mulligan", "cards": []}), T0)
    calls: list[str] = []

    def counting(state: Any, event: Any) -> Any:
        calls.append(event["type"])
        return evolve(state, event)

    monkeypatch.setattr(GAME, "evolve", counting)  # the game's evolve, however the domain reaches it
    decision = domain.decide_for(m, A, {"type": "end_turn"})
    rows = _rows(decision.events, T0, m.version + 1)
    domain.fold_decided(m, rows, decision.rules)
    assert calls == [kind for kind, _ in decision.events]  # each once, for the state hash


def test_service_events_keep_their_stored_keys_order_and_values() -> None:
    decision, m = _opened()
    assert decision.events[0] == (
        "MatchCreated",
        {
            "match_id": "m1",
            "mode": "casual",
            "players": [A, B],
            "bot": None,
            "request_id": None,
            "game": "arcana",
            "bots": [],
        },
    )
    since = (T0 + timedelta(seconds=20)).isoformat()
    [gone] = domain.decide_command(m, {"type": "disconnect", "player": A, "since": since})
    assert gone == ("PlayerDisconnected", {"player_id": A, "since": since})
    m = domain.fold_match(_rows([gone], T0, m.version + 1), m)
    [back] = domain.decide_command(m, {"type": "reconnect", "player": A})
    assert back == ("PlayerReconnected", {"player_id": A, "since": since})
    assert domain.with_reconnect(m, A, []) == [back]
    [rejected] = domain.rejected_request_events(
        "m2", "r1", "casual", [{"id": A}, B], "invalid_deck", "no", {A: []}
    )
    assert rejected == (
        "MatchRequestRejected",
        {
            "match_id": "m2",
            "request_id": "r1",
            "mode": "casual",
            "players": [A, B],
            "reason": "invalid_deck",
            "message": "no",
            "problems": {A: []},
            "game": "arcana",
        },
    )
    *_, (kind, ended) = domain.decide_command(m, {"type": "concede", "player": A})
    assert kind == "MatchEnded"
    assert list(ended) == [
        "type", "winner", "reason", "match_id", "mode", "players", "loser", "draw", "turns", "round", "bot",
        "stats", "game", "placements", domain.HASH_KEY,
    ]  # fmt: skip
    assert (ended["winner"], ended["loser"], ended["draw"], ended["players"]) == (B, A, False, [A, B])


def test_a_reconnect_of_a_player_who_is_not_disconnected_is_refused() -> None:
    _, m = _opened()
    with pytest.raises(ValueError):
        domain.decide_match(m, {"type": "reconnect", "player": A})
