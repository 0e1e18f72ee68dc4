"""The match service's pure domain: folding stored events, deadlines, presence, visibility, drift."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from libs.games.arcana import STARTER_DECK
from libs.games.arcana.bots import greedy_bot
from services.match import domain

T0 = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
A, B = "alice", "bob"


def _stored(
    events: list[domain.Event], at: datetime, start: int
) -> list[tuple[str, dict[str, Any], datetime, int]]:
    return [(kind, data, at, start + i) for i, (kind, data) in enumerate(events)]


def _new(first: str = A, bot: str | None = None, seed: int = 9) -> tuple[domain.Match, list[Any]]:
    players = [{"id": A, "deck": list(STARTER_DECK)}, {"id": bot or B, "deck": list(STARTER_DECK)}]
    events = domain.new_match_events(
        "m1", "casual", players, seed, "2026-01-05", bot=bot, options={"first": first}
    )
    rows = _stored(events, T0, 1)
    return domain.fold_match(rows), rows


def _apply(m: domain.Match, command: dict[str, Any], at: datetime, rows: list[Any]) -> domain.Match:
    new = _stored(domain.decide_command(m, command), at, m.version + 1)
    rows.extend(new)
    return domain.fold_match(new, m)


def test_a_new_match_starts_in_the_mulligan_with_a_30_second_deadline() -> None:
    m, rows = _new()
    assert rows[0][0] == "MatchCreated" and rows[1][0] == "MatchStarted"
    assert m.phase == "mulligan" and domain.deadline(m) == T0 + timedelta(seconds=30)
    assert domain.awaiting(m) == [A, B]
    assert domain.HASH_KEY in rows[-1][1] and all(domain.HASH_KEY not in r[1] for r in rows[:-1])


def test_the_undecided_player_keeps_the_hand_at_30_seconds_then_turns_last_60() -> None:
    m, rows = _new()
    m = _apply(m, {"type": "mulligan", "player": A, "cards": []}, T0 + timedelta(seconds=5), rows)
    seen = {A: T0 + timedelta(seconds=29), B: T0 + timedelta(seconds=29)}
    assert domain.next_due(m, T0 + timedelta(seconds=29), seen) is None
    due = domain.next_due(m, T0 + timedelta(seconds=30), seen)
    assert due == {"type": "timeout", "player": B}
    at = T0 + timedelta(seconds=30)
    m = _apply(m, due, at, rows)
    assert m.phase == "playing" and domain.deadline(m) == at + timedelta(seconds=60)
    assert domain.awaiting(m) == [A]


def test_presence_order_reconnect_forfeit_disconnect() -> None:
    m, rows = _new()
    silent = domain.next_due(m, T0 + timedelta(seconds=20), {A: T0 + timedelta(seconds=15)})
    assert silent == {"type": "disconnect", "player": B, "since": (T0 + timedelta(seconds=20)).isoformat()}
    m = _apply(m, silent, T0 + timedelta(seconds=21), rows)
    assert m.disconnected == {B: T0 + timedelta(seconds=20)}
    late = T0 + timedelta(seconds=140)
    assert domain.next_due(m, late, {A: late}) == {"type": "forfeit", "player": B, "reason": "disconnect"}
    back = domain.next_due(m, late, {A: late, B: T0 + timedelta(seconds=100)})
    assert back == {"type": "reconnect", "player": B}
    m = _apply(m, back, late, rows)
    assert m.disconnected == {}


def test_the_bot_is_never_disconnected_and_moves_when_awaited() -> None:
    m, _ = _new(bot="bot-1")
    assert domain.next_due(m, T0 + timedelta(seconds=25), {A: T0 + timedelta(seconds=24)}) is None
    command = domain.bot_command(m, random.Random(1))
    assert command is not None and command["type"] == "mulligan" and command["player"] == "bot-1"


def test_match_ended_carries_what_other_services_need() -> None:
    m, rows = _new()
    m = _apply(m, {"type": "concede", "player": A}, T0, rows)
    kind, data = rows[-1][0], rows[-1][1]
    assert kind == "MatchEnded" and m.ended
    assert (data["winner"], data["loser"], data["draw"], data["reason"], data["mode"]) == (
        B,
        A,
        False,
        "concede",
        "casual",
    )
    assert set(data["stats"]) == {A, B} and data["turns"] == 0


def test_clients_never_see_hashes_seeds_decks_or_orders() -> None:
    _, rows = _new()
    for kind, data, _, _ in rows:
        for player in (A, B):
            seen = domain.client_event(kind, data, player)
            if seen is None:
                assert kind == "DeckShuffled"
                continue
            text = repr(seen)
            assert "seed" not in seen and domain.HASH_KEY not in seen and "deck" not in text
            if kind == "CardDrawn" and data["player_id"] != player:
                assert seen == {"type": "CardDrawn", "player_id": data["player_id"]}


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=0, max_value=2**40), st.integers(min_value=0, max_value=10**6))
def test_replay_matches_the_stored_hashes_and_detects_drift(seed: int, bot_seed: int) -> None:
    m, rows = _new(seed=seed)
    rng = random.Random(bot_seed)
    for _ in range(40):
        waiting = domain.awaiting(m)
        if not waiting:
            break
        command = greedy_bot(m.rules, waiting[0], rng)  # type: ignore[arg-type]
        assert command is not None
        m = _apply(m, command, T0, rows)
    assert domain.replay_problems(rows) == []
    kind, data, at, version = rows[-1]
    tampered = [*rows[:-1], (kind, {**data, domain.HASH_KEY: "0" * 64}, at, version)]
    assert domain.replay_problems(tampered) != []


def test_request_problems_name_the_reason() -> None:
    good = [{"id": A, "deck": list(STARTER_DECK)}, {"id": B, "deck": list(STARTER_DECK)}]
    assert domain.request_problem("ranked", good) is None
    assert domain.request_problem("practice", good)[0] == "invalid_mode"  # type: ignore[index]
    assert domain.request_problem("casual", good[:1])[0] == "invalid_players"  # type: ignore[index]
    bad = [good[0], {"id": B, "deck": ["x"] * 20}]
    reason, message, details = domain.request_problem("casual", bad)  # type: ignore[misc]
    assert reason == "invalid_deck" and B in details and B in message


def test_when_both_are_gone_the_one_who_left_first_forfeits() -> None:
    m, rows = _new()
    m = _apply(
        m, {"type": "disconnect", "player": B, "since": (T0 + timedelta(seconds=20)).isoformat()}, T0, rows
    )
    m = _apply(
        m, {"type": "disconnect", "player": A, "since": (T0 + timedelta(seconds=25)).isoformat()}, T0, rows
    )
    late = T0 + timedelta(seconds=200)
    assert domain.next_due(m, late, {}) == {"type": "forfeit", "player": B, "reason": "disconnect"}


def test_everything_due_after_an_outage_is_decided_at_once_as_one_by_one() -> None:
    """Both players silent and the turn over: the two disconnections and the timeout, in
    ``next_due``'s order, with the same events (hashes included) as three decisions one after the
    other; nothing more is due after them, and ``limit`` caps how many are taken."""
    m, rows = _new()
    for player in (A, B):
        m = _apply(m, {"type": "mulligan", "player": player, "cards": []}, T0, rows)
    seen = {A: T0, B: T0}
    now = T0 + timedelta(seconds=61)

    decided = domain.decide_due(m, now, seen, limit=8)
    assert decided is not None
    decision, commands = decided
    assert [c["type"] for c in commands] == ["disconnect", "disconnect", "timeout"]
    one_by_one, step = [], m
    for command in commands:
        events = domain.decide_command(step, command)
        one_by_one += events
        step = domain.fold_match(_stored(events, now, step.version + 1), step)
    assert decision.events == one_by_one
    after = domain.fold_decided(m, _stored(decision.events, now, m.version + 1), decision.rules)
    assert after.rules == step.rules and after.disconnected == step.disconnected
    assert domain.next_due(after, now, seen) is None
    assert domain.replay_problems([*rows, *_stored(decision.events, now, m.version + 1)]) == []

    first_only = domain.decide_due(m, now, seen, limit=1)
    assert first_only is not None and [c["type"] for c in first_only[1]] == ["disconnect"]
    assert domain.decide_due(m, T0 + timedelta(seconds=5), seen, limit=8) is None
