"""Issue 34's feeder simulation: 20 feeder accounts, each once Silver and so held on the Silver floor,
concede every ranked match to one main for 10 days, as often as the fair-play caps let a pair count
(the pair's first 3 matches of a UTC day; a 4th is tried each day and counts nothing; the daily coin
limit is in force). Pure: the real verdict, tally, rating and fold functions, no I/O.

"Honest play against the same opponents" is the same schedule with the same results, rated with the
tier floors switched off: every feeder's loss counts as an honest loser's does. The main's hidden
rating must end exactly there (the floors give it nothing), the hidden ratings of the 21 accounts
must sum to what they started with, and the main's visible points must never climb faster than its
hidden rating allows. Figures: ``python -m pytest tests/unit/ratings/test_feeder_simulation.py -s``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from libs import fairplay
from libs.contracts import MatchEnded
from services.ratings import domain as d

DAYS, FEEDERS, TRIES_PER_PAIR_A_DAY, START = 10, 20, 4, 1000
MAIN = "main"


def _once_silver(player_id: str) -> d.PlayerRating:
    """An account that reached Silver in its first 30 games: 1000 visible and hidden, floor Silver."""
    return d.PlayerRating(player_id, START, "silver", wins=15, losses=15, hidden=START)


@dataclass
class Ladder:
    players: dict[str, d.PlayerRating]
    tally: fairplay.DayTally = field(default_factory=fairplay.DayTally)
    matches: int = 0
    floored: int = 0
    refused: int = 0
    peak_hidden: int = START
    changes: list[d.RatingChanged] = field(default_factory=list)

    def concede(self, feeder: str) -> None:
        """The feeder concedes at turn 6, through the verdict of the day so far and ratings' result."""
        self.matches += 1
        ended: dict[str, Any] = {
            "match_id": f"m{self.matches}", "mode": "ranked", "players": [MAIN, feeder], "winner": MAIN,
            "loser": feeder, "draw": False, "turns": 6, "round": 4, "reason": "concede", "bot": None,
        }  # fmt: skip
        end = fairplay.MatchEnd.from_data(ended)
        assert end is not None
        verdicts = fairplay.decide(end, self.tally)
        self.tally = fairplay.record(self.tally, end.players, verdicts)
        ended["verdict"] = {p: v.to_data() for p, v in verdicts.items()}
        result = d.ranked_result(MatchEnded.decode_data(ended))
        if result is None:
            self.refused += 1
            return
        for change in d.rate(result, self.players[MAIN], self.players[feeder]):
            self.players[change.player_id] = d.evolve(self.players[change.player_id], change)
            self.floored += change.reason == d.FLOOR
            if change.player_id == MAIN:
                self._main_moved(change)

    def _main_moved(self, change: d.RatingChanged) -> None:
        """The visible ladder never climbs faster than the hidden rating allows: a win lifts it at most
        to the hidden rating, and it never stands above the highest hidden rating reached."""
        assert change.after <= max(change.before, change.hidden_after), change
        self.peak_hidden = max(self.peak_hidden, change.hidden_after)
        assert change.after <= self.peak_hidden, change
        self.changes.append(change)


def feed() -> Ladder:
    feeders = [f"f{i:02d}" for i in range(FEEDERS)]
    ladder = Ladder({p: _once_silver(p) for p in [MAIN, *feeders]})
    for _day in range(DAYS):
        ladder.tally = fairplay.DayTally()  # a new UTC day
        for _try in range(TRIES_PER_PAIR_A_DAY):
            for feeder in feeders:
                ladder.concede(feeder)
    return ladder


def _floors_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(d.elo, "tier_floor", lambda tier: 0)


def test_feeders_on_their_floors_give_the_main_exactly_what_honest_losers_would(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fed = feed()
    main, feeders = fed.players[MAIN], [p for k, p in fed.players.items() if k != MAIN]
    with monkeypatch.context() as patched:
        _floors_off(patched)
        honest = feed()
    print(
        f"\nfeeder simulation: {fed.matches} matches, {fed.refused} refused by the caps, "
        f"{fed.floored} floored losses; main hidden {main.hidden} (honest losers: "
        f"{honest.players[MAIN].hidden}), visible {main.rating} {main.tier}; feeders hidden "
        f"{min(f.hidden for f in feeders)}..{max(f.hidden for f in feeders)}, visible "
        f"{sorted({f.rating for f in feeders})}"
    )
    assert fed.refused == DAYS * FEEDERS * (TRIES_PER_PAIR_A_DAY - fairplay.PAIR_DAILY_MATCHES)
    assert main.wins == 15 + DAYS * FEEDERS * fairplay.PAIR_DAILY_MATCHES  # 15 before the ten days
    assert fed.floored > 0 and all(f.rating == START and f.hidden < START for f in feeders)  # on floors
    assert main.hidden == honest.players[MAIN].hidden
    assert sum(p.hidden for p in fed.players.values()) == START * (FEEDERS + 1)  # zero-sum
    assert fed.changes and main.rating <= fed.peak_hidden


def test_the_honest_run_has_no_floor_so_the_comparison_measures_the_floors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _floors_off(monkeypatch)
    honest = feed()
    feeders = [p for k, p in honest.players.items() if k != MAIN]
    assert honest.floored == 0 and all(f.rating < START for f in feeders)
