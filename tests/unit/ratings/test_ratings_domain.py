"""The rating rules: Elo with the K schedule, tiers, the tier floor, which matches count."""

from __future__ import annotations

import pytest

from libs.contracts import MalformedEvent, MatchEnded
from services.ratings import domain as d


def ended(**over: object) -> MatchEnded:
    """A MatchEnded as ratings decodes it at its boundary."""
    return MatchEnded.decode_data(data(**over))


def data(**over: object) -> dict:
    base = {
        "match_id": "m1",
        "mode": "ranked",
        "players": ["a", "b"],
        "winner": "a",
        "loser": "b",
        "draw": False,
        "turns": 4,
        "round": 2,
        "bot": None,
        "reason": "hero_dead",
    }
    return {**base, **over}


def play(
    winner: d.PlayerRating, loser: d.PlayerRating, match_id: str
) -> tuple[d.PlayerRating, d.PlayerRating]:
    w, lo = d.rate(d.RankedResult(match_id, winner.player_id, loser.player_id), winner, loser)
    return d.evolve(winner, w), d.evolve(loser, lo)


def test_a_new_player_starts_at_900_in_bronze() -> None:
    p = d.PlayerRating("a")
    assert (p.rating, p.tier, p.highest_tier, p.games) == (900, "bronze", "bronze", 0)


@pytest.mark.parametrize(
    ("rating", "tier"),
    [
        (0, "bronze"),
        (999, "bronze"),
        (1000, "silver"),
        (1149, "silver"),
        (1150, "gold"),
        (1300, "platinum"),
        (1450, "diamond"),
        (1599, "diamond"),
        (1600, "arcane"),
        (2500, "arcane"),
    ],
)
def test_tiers_by_lower_bound(rating: int, tier: str) -> None:
    assert d.tier_for(rating) == tier


def test_k_is_40_for_the_first_30_games_then_24_and_a_match_takes_the_mean_of_both() -> None:
    assert [d.k_factor(g) for g in (0, 29, 30, 500)] == [40, 40, 24, 24]
    a, b = d.PlayerRating("a"), d.PlayerRating("b")
    a2, b2 = play(a, b, "m1")
    assert (a2.rating, b2.rating) == (920, 880)  # equal ratings: K/2 each way
    veteran, other_veteran = d.PlayerRating("a", wins=30), d.PlayerRating("b", losses=30)
    w, lo = d.rate(d.RankedResult("m2", "a", "b"), veteran, other_veteran)
    assert (w.delta, lo.delta) == (12, -12)
    w, lo = d.rate(d.RankedResult("m2", "a", "b"), veteran, d.PlayerRating("b"))
    assert (w.hidden_after - w.hidden_before, lo.hidden_after - lo.hidden_before) == (16, -16)  # (24+40)/2


def test_an_upset_moves_more_than_an_expected_win() -> None:
    strong = d.PlayerRating("s", rating=1200, highest_tier="gold", hidden=1200)
    weak = d.PlayerRating("w", rating=900)
    expected, _ = d.rate(d.RankedResult("m1", "s", "w"), strong, weak)
    upset, _ = d.rate(d.RankedResult("m2", "w", "s"), weak, strong)
    assert 0 < expected.delta < upset.delta
    assert expected.delta + upset.delta == 40  # K * (E + (1 - E))


def test_the_events_carry_the_published_contract() -> None:
    a = d.PlayerRating("a", rating=990, hidden=990)
    w, lo = d.rate(d.RankedResult("m1", "a", "b"), a, d.PlayerRating("b"))
    assert w.data() == {
        "player_id": "a",
        "match_id": "m1",
        "before": 990,
        "after": 1005,
        "tier": "silver",
        "highest_tier": "silver",
        "delta": 15,
        "result": "win",
        "hidden_before": 990,
        "hidden_after": 1005,
        "game": "arcana",
        "reason": None,
    }
    assert (
        lo.result == "loss"
        and lo.delta == -15
        and lo.after == 885
        and d.rating_stream(lo.player_id) == "rating-b"
    )
    assert d.RatingChanged.from_data(w.data()) == w


def test_a_silver_player_losing_many_games_stays_at_least_1000() -> None:
    climber, rival = d.PlayerRating("c"), d.PlayerRating("r", rating=1400, highest_tier="platinum")
    n = 0
    while climber.rating < 1000:
        n += 1
        climber, _ = play(climber, d.PlayerRating(f"x{n}"), f"w{n}")
    assert climber.highest_tier == "silver"
    for i in range(200):
        rival, climber = play(rival, climber, f"l{i}")
        assert climber.rating >= 1000
    assert climber.rating == 1000 and climber.tier == "silver" and climber.losses == 200


def test_the_floor_is_the_highest_tier_reached_not_the_current_one() -> None:
    p = d.PlayerRating("p", rating=1150, highest_tier="gold")
    for i in range(100):
        _, p = play(d.PlayerRating(f"o{i}", rating=1150), p, f"m{i}")
    assert p.rating == 1150 and p.highest_tier == "gold"


def test_a_redelivered_match_is_refused() -> None:
    a, b = play(d.PlayerRating("a"), d.PlayerRating("b"), "m1")
    with pytest.raises(d.AlreadyRated):
        d.rate(d.RankedResult("m1", "a", "b"), a, b)


def test_a_ranked_match_past_turn_4_with_a_winner_counts() -> None:
    assert d.ranked_result(ended()) == d.RankedResult("m1", "a", "b")
    conceded = ended(winner="b", loser="a", reason="concede", turns=9)
    assert d.ranked_result(conceded) == d.RankedResult("m1", "b", "a")


@pytest.mark.parametrize(
    "over",
    [
        {"mode": "casual"},
        {"mode": "practice", "bot": "b"},
        {"mode": "admin"},
        {"draw": True, "winner": "draw", "loser": None},  # as match publishes a draw
        {"turns": 3},
        {"bot": "b"},
        {"winner": "a", "loser": "a"},
        {"winner": "z"},
        {"players": ["a"]},
    ],
)
def test_everything_else_changes_nothing(over: dict) -> None:
    assert d.ranked_result(ended(**over)) is None


def test_a_match_ended_without_its_turns_does_not_decode() -> None:
    with pytest.raises(MalformedEvent):  # the consumer dead-letters it: nothing is rated
        ended(turns=None)


def test_fold_replays_the_stream() -> None:
    a, b = d.PlayerRating("a"), d.PlayerRating("b")
    events = []
    for i in range(5):
        w, lo = d.rate(d.RankedResult(f"m{i}", "a", "b"), a, b)
        a, b = d.evolve(a, w), d.evolve(b, lo)
        events.append(w)
    assert d.fold("a", events) == a
    assert (a.wins, a.losses, a.version) == (5, 0, 5)


def test_the_domain_event_is_the_published_one() -> None:
    from services.ratings.events import CATALOG

    w, _ = d.rate(d.RankedResult("m1", "a", "b"), d.PlayerRating("a"), d.PlayerRating("b"))
    assert type(w) is CATALOG.event("RatingChanged") and type(w).decode_data(w.data()) == w
