"""Issue 34, finding 1: a tier floor created rating (the winner gained the full amount while the
loser held on its floor lost nothing). The hidden rating moves both ways, zero-sum; the floor holds
only the visible points, and a floored loss says so (reason ``floor``)."""

from __future__ import annotations

import random

from services.ratings import domain as d


def hidden_delta(change: d.RatingChanged) -> int:
    return change.hidden_after - change.hidden_before


def test_a_floored_loser_loses_hidden_rating_as_the_winner_gains_it() -> None:
    """On the code before the hidden rating: the winner +20, the loser on its Silver floor 0 (a sum
    of +20 created by the floor)."""
    winner = d.PlayerRating("w", rating=1000, highest_tier="silver", hidden=1000)
    floored = d.PlayerRating("f", rating=1000, highest_tier="silver", hidden=1000)
    won, lost = d.rate(d.RankedResult("m1", "w", "f"), winner, floored)
    assert hidden_delta(won) == 20 and hidden_delta(lost) == -20
    assert hidden_delta(won) + hidden_delta(lost) == 0
    assert (lost.after, lost.delta, lost.reason) == (1000, 0, d.FLOOR)  # the visible floor held
    assert won.reason is None and won.delta == 20


def test_the_floor_keeps_holding_the_visible_points_while_the_hidden_rating_keeps_falling() -> None:
    floored = d.PlayerRating("f", rating=1000, highest_tier="silver", hidden=1000)
    for i in range(10):
        won, lost = d.rate(
            d.RankedResult(f"m{i}", "o", "f"), d.PlayerRating("o", rating=1000, hidden=1000), floored
        )
        assert hidden_delta(won) == -hidden_delta(lost) > 0
        floored = d.evolve(floored, lost)
        assert (floored.rating, lost.reason) == (1000, d.FLOOR)
    assert floored.hidden < 1000 - 100 and floored.losses == 10


def test_a_loss_above_the_floor_has_no_reason() -> None:
    player = d.PlayerRating("p", rating=1100, highest_tier="silver", hidden=1100)
    _, lost = d.rate(d.RankedResult("m1", "o", "p"), d.PlayerRating("o", rating=1100, hidden=1100), player)
    assert lost.delta < 0 and lost.reason is None


def _random_player(rng: random.Random, name: str) -> d.PlayerRating:
    hidden = rng.randint(600, 1800)
    visible = max(0, hidden + rng.randint(-60, 60))
    highest = d.tier_for(visible + rng.choice((0, 0, 150)))
    return d.PlayerRating(
        name, max(visible, d.tier_floor(highest)), highest, wins=rng.randint(0, 60), hidden=hidden
    )


def test_every_result_is_zero_sum_in_hidden_rating_and_visible_points_follow_it() -> None:
    """5,000 seeded random results between players in any state (visible above, on or below their
    hidden rating, on a floor or not): the hidden rating is zero-sum; a win never lowers the visible
    points nor lifts them above the hidden rating (unless already there), a loss never raises them, and
    they never leave the floor of the highest tier."""
    rng = random.Random(34)
    for i in range(5000):
        a, b = _random_player(rng, "a"), _random_player(rng, "b")
        won, lost = d.rate(d.RankedResult(f"m{i}", "a", "b"), a, b)
        assert hidden_delta(won) + hidden_delta(lost) == 0 and hidden_delta(won) >= 0
        assert a.rating <= won.after <= max(a.rating, won.hidden_after)
        assert lost.after <= b.rating and lost.after >= d.tier_floor(b.highest_tier)
        assert lost.reason is None or lost.after == d.tier_floor(b.highest_tier)


def test_visible_points_behind_the_hidden_rating_catch_up_by_at_most_10_a_result() -> None:
    behind = d.PlayerRating("p", rating=1000, highest_tier="silver", wins=40, hidden=1200)
    gaps = []
    for i in range(12):
        opponent = d.PlayerRating("o", rating=behind.hidden, wins=40, hidden=behind.hidden)
        pair = (behind, opponent) if i % 2 == 0 else (opponent, behind)
        changes = d.rate(d.RankedResult(f"m{i}", pair[0].player_id, pair[1].player_id), *pair)
        change = next(c for c in changes if c.player_id == "p")
        if change.result == d.WIN:
            assert change.delta == hidden_delta(change) + d.CATCH_UP_MAX  # the gap is large: the cap
        behind = d.evolve(behind, change)
        gaps.append(behind.hidden - behind.rating)
    assert gaps == list(range(190, 70, -10))  # each result, win or loss, closes 10 of the gap


def test_a_version_1_rating_changed_reads_with_its_one_rating_as_the_hidden_one() -> None:
    """Stored and published before the hidden rating: read (upcast, never rewritten) with the hidden
    rating equal to the visible one and no reason, by ratings' own store and by matchmaking alike."""
    import uuid

    from libs import clock
    from libs.eventstore import RecordedEvent
    from services.ratings.upcasting import UPCASTERS

    v1 = {"player_id": "p", "match_id": "m", "before": 1000, "after": 1000, "tier": "silver",
          "highest_tier": "silver", "delta": 0, "result": "loss"}  # fmt: skip
    decoded = d.RatingChanged.decode_data(v1, 1)
    assert (decoded.hidden_before, decoded.hidden_after, decoded.reason) == (1000, 1000, None)
    stored = RecordedEvent(uuid.uuid4(), "rating-p", 1, 1, "RatingChanged", 1, clock.now(), None, None, v1)
    upcast = UPCASTERS.upcast(stored)
    assert upcast.schema_version == 2 and d.RatingChanged.from_data(upcast.data) == decoded
    assert d.evolve(d.start("p"), decoded).hidden == 1000
