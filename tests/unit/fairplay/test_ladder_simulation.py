"""Issue 17's simulation: 200 honest players of fixed hidden skill and 10 colluding pairs (a main
account and its alt) play ranked for 30 days under the fair-play rules, through the real domain
functions: matchmaking's pairing pass, the fair-play verdict and its daily tally, ratings' result,
Elo and fold. Honest players arrive by day; colluders play like them, and each pair also queues both
accounts at an hour of the night when no one else does, and again at once after each match between
them (the feeder loop): their matches
end by a concede past turn 4, the main letting the alt win until the alt reached Silver, then the
alt conceding every match from its Silver floor. (Dodging costs a normal loss under the rules, so
these colluders play their honest opponents; tests/e2e/test_fair_play_e2e.py tries the dodge.)
Pure and seeded.

Figures (``python -m pytest tests/unit/fairplay/test_ladder_simulation.py -s``): each colluder's final
rating against the ratings of the honest players of about the same skill (within 75 points), and the
Spearman correlation of rating and skill.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from typing import Any

from libs import fairplay
from libs.contracts import MatchEnded
from services.matchmaking import domain as matchmaking
from services.ratings import domain as ratings
from tests.unit.ratings.test_rating_quality import spearman

DAYS = 30
WAVES_PER_DAY = 24  # one wave of arrivals an hour
PASS_EVERY, PASSES = 6, 14  # pairing passes in a wave: every 6 s for 84 s
NEIGHBOURS = 75.0  # honest players "of the same skill": within this many points of hidden skill
HONEST, PAIRS = 200, 10
PLAYS_PER_DAY = 6  # an honest player's matches a day, on average
START = datetime(2026, 12, 1, tzinfo=UTC)


@dataclass
class Player:
    player_id: str
    skill: float
    honest: bool = True
    partner: str | None = None  # a colluder's other account
    last_opponent: str | None = None
    climbing: bool = False  # an alt not yet on a floor above Bronze


def _wins(a: Player, b: Player, rng: random.Random) -> bool:
    return rng.random() < 1.0 / (1.0 + 10.0 ** ((b.skill - a.skill) / 400.0))


def _result(a: Player, b: Player, rng: random.Random) -> tuple[str, int, str]:
    """(winner id, turns, how it ended) of one match as the two accounts play it."""
    if a.partner == b.player_id:  # a colluding pair: one account concedes at turn 4
        main, alt = (a, b) if a.player_id.endswith("main") else (b, a)
        return (alt if alt.climbing else main).player_id, 4, "concede"
    winner = a if _wins(a, b, rng) else b
    return winner.player_id, rng.randint(5, 20), "hero_killed"


class Ladder:
    def __init__(self, players: list[Player], rng: random.Random) -> None:
        self.players = {p.player_id: p for p in players}
        self.rating = {p.player_id: ratings.PlayerRating(p.player_id) for p in players}
        self.rng = rng
        self.day_tally = fairplay.DayTally()
        self.matches = 0

    def play(self, a: Player, b: Player, day: date) -> None:
        self.matches += 1
        winner, turns, how = _result(a, b, self.rng)
        loser = b.player_id if winner == a.player_id else a.player_id
        ended: dict[str, Any] = {
            "match_id": f"m{self.matches}", "mode": "ranked", "players": [a.player_id, b.player_id],
            "winner": winner, "loser": loser, "draw": False, "turns": turns, "round": turns // 2 + 1,
            "reason": how, "bot": None,
        }  # fmt: skip
        end = fairplay.MatchEnd.from_data(ended)
        assert end is not None
        verdicts = fairplay.decide(end, self.day_tally)
        self.day_tally = fairplay.record(self.day_tally, end.players, verdicts)
        ended["verdict"] = {p: v.to_data() for p, v in verdicts.items()}
        result = ratings.ranked_result(MatchEnded.decode_data(ended))
        if result is not None:
            for change in ratings.rate(result, self.rating[winner], self.rating[loser]):
                self.rating[change.player_id] = ratings.evolve(self.rating[change.player_id], change)
        for p in (a, b):
            p.climbing = p.climbing and self.rating[p.player_id].highest_tier == "bronze"
        a.last_opponent, b.last_opponent = b.player_id, a.player_id

    def wave(self, at: datetime, joining: list[Player]) -> None:
        waiting = {
            p.player_id: matchmaking.Waiting(
                f"t-{p.player_id}",
                p.player_id,
                "ranked",
                self.rating[p.player_id].hidden,  # matchmaking pairs by the hidden rating
                at,
                p.last_opponent,
            )
            for p in joining
        }
        for k in range(PASSES):
            now = at + timedelta(seconds=k * PASS_EVERY)
            for pair in matchmaking.pair_ranked(list(waiting.values()), now):
                a, b = self.players[pair.first.player_id], self.players[pair.second.player_id]
                self.play(a, b, at.date())
                del waiting[a.player_id], waiting[b.player_id]
                if a.partner == b.player_id:  # the feeder loop: both queue again at once
                    for p in (a, b):
                        rating = self.rating[p.player_id].hidden
                        waiting[p.player_id] = matchmaking.Waiting(
                            f"t-{p.player_id}-{k}", p.player_id, "ranked", rating, now, p.last_opponent
                        )


def simulate(seed: int = 17) -> tuple[list[Player], dict[str, int]]:
    rng = random.Random(seed)
    honest = [Player(f"h{i:03d}", rng.gauss(1150, 200)) for i in range(HONEST)]
    colluders: list[Player] = []
    for i in range(PAIRS):
        main = Player(f"c{i}-main", rng.gauss(1150, 200), honest=False, partner=f"c{i}-alt")
        alt = Player(f"c{i}-alt", rng.gauss(1000, 150), honest=False, partner=f"c{i}-main", climbing=True)
        colluders += [main, alt]
    ladder = Ladder(honest + colluders, rng)
    chance = PLAYS_PER_DAY / (WAVES_PER_DAY - PAIRS)
    for day in range(DAYS):
        ladder.day_tally = fairplay.DayTally()  # a new UTC day
        for w in range(WAVES_PER_DAY):
            at = START + timedelta(days=day, hours=w)
            if w < PAIRS:  # the night: pair w's two accounts queue while no one else does
                joining = colluders[2 * w : 2 * w + 2]
            else:
                joining = [p for p in honest + colluders if rng.random() < chance]
            rng.shuffle(joining)
            ladder.wave(at, joining)
    return honest + colluders, {p: r.rating for p, r in ladder.rating.items()}


def _honest_range(players: list[Player], rating: dict[str, int], skill: float) -> tuple[int, int]:
    """The lowest and highest final rating of the honest players within ``NEIGHBOURS`` of ``skill``."""
    near = [rating[p.player_id] for p in players if p.honest and abs(p.skill - skill) <= NEIGHBOURS]
    assert len(near) >= 5, skill
    return min(near), max(near)


def _excess(players: list[Player], rating: dict[str, int]) -> dict[str, int]:
    """Per colluding account: its final rating minus the highest honest rating for its skill."""
    return {
        p.player_id: rating[p.player_id] - _honest_range(players, rating, p.skill)[1]
        for p in players
        if not p.honest
    }


def test_colluders_stay_within_the_honest_range_for_their_skill_and_the_ladder_ranks_by_skill() -> None:
    players, rating = simulate()
    honest = [p for p in players if p.honest]
    excess = _excess(players, rating)
    quality = spearman([p.skill for p in honest], [rating[p.player_id] for p in honest])
    everyone = spearman([p.skill for p in players], [rating[p.player_id] for p in players])
    print(
        f"\ncolluders' final rating minus the highest honest rating of their skill (±{NEIGHBOURS:.0f}): "
        f"max {max(excess.values()):+d}, mains {sorted(v for k, v in excess.items() if 'main' in k)}; "
        f"Spearman rating~skill: honest {quality:.3f}, everyone {everyone:.3f}"
    )
    assert max(excess.values()) <= 0, excess
    assert quality >= 0.8 and everyone >= 0.8


def _floors_hold_the_hidden_rating(monkeypatch: Any) -> None:
    """The ladder before issue 34: one rating, held by the tier floor (the hidden rating follows the
    visible points, floor included), so a floored loser loses nothing while the winner gains."""
    evolve = ratings.evolve

    def held(state: Any, event: Any) -> Any:
        after = evolve(state, event)
        return replace(after, hidden=after.rating)

    monkeypatch.setattr(ratings, "evolve", held)


def test_without_the_fair_play_rules_the_same_script_boosts_the_mains(monkeypatch: Any) -> None:
    """The control: with the rules switched off (every match from turn 4 counts however often the
    pair meets, rematches at once, early concedes move nothing as before) and the floor holding the
    one rating as before issue 34's hidden rating, the same script lifts the mains above every honest
    player of their skill, so the first test measures the defences."""
    _floors_hold_the_hidden_rating(monkeypatch)
    monkeypatch.setattr(fairplay.verdict, "PAIR_DAILY_MATCHES", 10**9)
    monkeypatch.setattr(fairplay.games, "EARLY_END_BY_PLAYER", ())
    monkeypatch.setattr(matchmaking.pairing.fairplay, "may_rematch", lambda a, b: True)
    players, rating = simulate()
    excess = _excess(players, rating)
    mains = sorted(v for k, v in excess.items() if "main" in k)
    print(f"\ncontrol, no fair-play rules: mains' excess over the honest range {mains}")
    assert sum(v > 0 for v in mains) >= PAIRS // 2
