"""The match domain hosts games through the interface alone: a game resolved at once (the line) is
a match that ends in its opening batch, enriched like any end, and its replay finds the stored hash
even though the line keeps its events in its state (the hash is of the events as stored)."""

from __future__ import annotations

from datetime import UTC, datetime

from libs.games import registry
from services.match import domain

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def test_a_game_resolved_at_once_ends_in_its_opening_batch_and_replays_without_drift() -> None:
    registry.load(["libs.games.line.game"])
    line = registry.get("line")
    players = [
        {"id": "alice", "deck": list(line.starter_deck)},
        {"id": "bot-1", "deck": list(line.starter_deck)},
    ]
    decision = domain.open_match("m1", "practice", players, 7, "2026-12-01", bot="bot-1", game="line")
    rows = [(kind, data, T0, i) for i, (kind, data) in enumerate(decision.events, 1)]
    m = domain.fold_match(rows)
    assert m.game == "line" and m.ended and domain.awaiting(m) == [] and domain.deadline(m) is None
    assert m == domain.fold_decided(None, rows, decision.rules)
    kind, ended = decision.events[-1]
    assert kind == "MatchEnded" and (ended["game"], ended["mode"], ended["bot"]) == (
        "line",
        "practice",
        "bot-1",
    )
    assert sorted(p for group in ended["placements"] for p in group) == ["alice", "bot-1"]
    assert domain.replay_problems(rows) == []
    assert domain.client_event("MatchCreated", rows[0][1], "alice", "line") is not None
