"""The tournament bracket's pure rules (``services/match/domain/bracket.py``): seating in entry order,
bots in the empty seats at the fill time, the seating drawn, a window per round to choose a deck from
one's entry (the default deck after it), single elimination with the places 1, 2, 3-4, 5-8, each
human's place awarded once, and a bracket folded again from its events equal to the one decided."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest

from services.match.domain import bracket as b

T0 = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
RULES = b.Rules(seats=8, fill_after=60, choose_seconds=30)
PRIZES = {1: 6000, 2: 3000, 3: 1500, 5: 500}


def prize(place: int) -> tuple[str, int] | None:
    return ("shards", PRIZES[place]) if place in PRIZES else None


def ten(k: int) -> tuple[str, ...]:
    return tuple(f"card{k}_{i}" for i in range(10))


def problems(cards: Sequence[str], entry: Sequence[str]) -> list[str]:
    out = [f"{c} is not in your entry" for c in cards if c not in entry]
    return out + ([] if len(set(cards)) == 5 == len(cards) else ["five different cards"])


def default(entry: Sequence[str]) -> tuple[str, ...]:
    return tuple(entry[:5])


class Run:
    """A bracket decided step by step, every event kept (the stream)."""

    def __init__(self) -> None:
        self.events: list[b.Event] = b.open_bracket("t1", "g", RULES, T0)

    @property
    def state(self) -> b.Bracket:
        s = b.fold(self.events)
        assert s is not None
        return s

    def add(self, events: list[b.Event]) -> list[b.Event]:
        self.events += events
        return events

    def enter(self, player: str, k: int, at: datetime = T0) -> list[b.Event]:
        return self.add(b.decide_enter(self.state, b.Entrant(player, f"e-{player}", ten(k)), 7, at))

    def play_round(self, at: datetime, winners: dict[str, str] | None = None) -> None:
        """Defaults for whoever has not chosen, a match per fight, each won by ``winners`` (else by
        the pair's second seat)."""
        self.add(b.decide_defaults(self.state, at, default))
        for n, (fight, lineups) in enumerate(b.fights_to_start(self.state)):
            assert set(lineups) == set(fight.players)
            match_id = f"m{fight.round}-{n}"
            self.add(b.fight_started(self.state, fight, match_id))
            won = (winners or {}).get(match_id, fight.players[1])
            self.add(b.decide_result(self.state, match_id, won, at, prize))

    def of(self, kind: str) -> list[dict]:
        return [d for k, d in self.events if k == kind]


def bots(n: int) -> list[b.Entrant]:
    return [b.Entrant(f"bot-{i}", f"bot-{i}", ten(100 + i), bot=True) for i in range(n)]


def test_an_eight_seat_bracket_with_bots_is_played_to_the_end_and_every_human_place_is_awarded_once() -> None:
    run = Run()
    for i in range(3):
        run.enter(f"p{i}", i)
    assert run.state.filling and run.state.due_at() == T0 + timedelta(seconds=60)
    assert b.decide_fill(run.state, bots(5), 1, T0 + timedelta(seconds=59)) == []  # not yet
    filled = run.add(b.decide_fill(run.state, bots(9), 1, T0 + timedelta(seconds=60)))
    assert [k for k, _ in filled] == [b.ENTERED] * 5 + [b.FILLED, b.ROUND_STARTED]
    state = run.state
    assert sorted(state.order) == sorted(["p0", "p1", "p2", *(f"bot-{i}" for i in range(5))])
    assert len(state.fights) == 4 and state.round == 1

    at = T0 + timedelta(seconds=60)
    run.add(b.decide_lineup(run.state, "p0", ten(0)[5:], at, problems))
    assert b.decide_defaults(run.state, at, default) == []  # humans still choosing
    at += timedelta(seconds=30)  # the window closes
    for _ in range(3):
        run.play_round(at)
        at += timedelta(seconds=31)
    state = run.state
    assert state.ended and b.fold(run.events) == state
    places = sorted(state.places.values())
    assert places == [1, 2, 3, 3, 5, 5, 5, 5]
    awarded = run.of(b.PLACE_AWARDED)
    assert sorted(a["player_id"] for a in awarded) == ["p0", "p1", "p2"]  # humans only, once each
    for a in awarded:
        assert a["place"] == state.places[a["player_id"]] and a["amount"] == PRIZES[a["place"]]
        assert a["entry_id"] == f"e-{a['player_id']}"
    chosen = {d["player_id"]: d for d in run.of(b.LINEUP_CHOSEN) if d["round"] == 1}
    assert chosen["p0"]["cards"] == list(ten(0)[5:]) and chosen["p0"]["chosen_by"] == "player"
    assert chosen["p1"]["cards"] == list(ten(1)[:5]) and chosen["p1"]["chosen_by"] == "default"
    assert len(run.of(b.FIGHT_RECORDED)) == 7 and len(run.of(b.ELIMINATED)) == 7
    assert run.of(b.ENDED)[0]["winner"] == next(p for p, n in state.places.items() if n == 1)


def test_the_eighth_entry_fills_the_bracket_at_once_and_a_result_is_recorded_once() -> None:
    run = Run()
    for i in range(7):
        run.enter(f"p{i}", i)
    assert run.enter("p0", 0) == []  # seated already
    events = run.enter("p7", 7)
    assert [k for k, _ in events] == [b.ENTERED, b.FILLED, b.ROUND_STARTED]
    assert run.enter("p8", 8) == []  # full: the next bracket's
    for p in run.state.order:
        run.add(b.decide_lineup(run.state, p, ten(int(p[1:]))[:5], T0, problems))
    assert b.decide_defaults(run.state, T0, default) == []  # everyone chose
    fight, _ = b.fights_to_start(run.state)[0]
    run.add(b.fight_started(run.state, fight, "m"))
    first = run.add(b.decide_result(run.state, "m", fight.players[0], T0, prize))
    assert [k for k, _ in first] == [b.FIGHT_RECORDED, b.ELIMINATED, b.PLACE_AWARDED, b.ADVANCED]
    assert b.decide_result(run.state, "m", fight.players[0], T0, prize) == []  # delivered twice


def test_a_deck_must_come_from_the_entry_within_the_window_and_only_for_a_player_still_in() -> None:
    run = Run()
    for i in range(8):
        run.enter(f"p{i}", i)
    state = run.state
    with pytest.raises(b.InvalidLineup) as bad:
        b.decide_lineup(state, "p0", [*ten(0)[:4], ten(1)[0]], T0, problems)
    assert bad.value.details["problems"] == [f"{ten(1)[0]} is not in your entry"]
    with pytest.raises(b.NoRoundOpen):
        b.decide_lineup(state, "stranger", ten(0)[:5], T0, problems)
    with pytest.raises(b.NoRoundOpen):
        b.decide_lineup(state, "p0", ten(0)[:5], T0 + timedelta(seconds=30), problems)
    run.play_round(T0 + timedelta(seconds=30))
    loser = next(p for p, n in run.state.places.items() if n == 5)
    with pytest.raises(b.NoRoundOpen):
        b.decide_lineup(run.state, loser, ten(int(loser[1:]))[:5], T0 + timedelta(seconds=31), problems)


def test_a_fight_without_a_winner_goes_to_the_pairs_first_seat() -> None:
    run = Run()
    for i in range(8):
        run.enter(f"p{i}", i)
    run.add(b.decide_defaults(run.state, T0 + timedelta(seconds=30), default))
    fight, _ = b.fights_to_start(run.state)[0]
    run.add(b.fight_started(run.state, fight, "m"))
    recorded = run.add(b.decide_result(run.state, "m", None, T0, prize))[0][1]
    assert recorded["winner"] == fight.players[0] and recorded["loser"] == fight.players[1]
