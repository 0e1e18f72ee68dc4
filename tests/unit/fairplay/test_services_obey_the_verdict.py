"""Economy, progression and ratings read a MatchEnded through its verdict: what it refuses is paid
and moved by no one (finding 1, 2, 3, 7 of issue 17 at each consumer's decision)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from libs.contracts import MatchEnded
from libs.fairplay import DAILY_COIN_MATCHES, DayTally, MatchEnd, decide
from services.economy.domain.credits import match_credits
from services.progression.domain.facts import MatchResult
from services.ratings import domain as ratings

A, B = "a", "b"
DAY = dt.date(2026, 12, 1)


def ended(day: DayTally | None = None, **over: Any) -> dict[str, Any]:
    data = {
        "match_id": "m1", "mode": "ranked", "players": [A, B], "winner": A, "loser": B, "draw": False,
        "turns": 8, "round": 4, "reason": "hero_killed", "bot": None, "stats": {}, **over,
    }  # fmt: skip
    end = MatchEnd.from_data(data)
    assert end is not None
    return {**data, "verdict": {p: v.to_data() for p, v in decide(end, day or DayTally()).items()}}


def typed(data: dict[str, Any]) -> MatchEnded:
    """The event as the consumers decode it (``libs.contracts``)."""
    return MatchEnded.decode_data(data)


def paid(data: dict[str, Any]) -> dict[str, int]:
    return {
        c.player_id: c.credit.coins
        for c in match_credits(typed(data), dt.datetime(2026, 12, 1, tzinfo=dt.UTC))
    }


def counted(data: dict[str, Any]) -> list[str]:
    return MatchResult.from_event(typed(data), DAY).counted_players()


def rated(data: dict[str, Any]) -> ratings.RankedResult | None:
    return ratings.ranked_result(typed(data))


def test_a_counting_match_pays_moves_and_rates_both() -> None:
    data = ended()
    assert paid(data) == {A: 60, B: 20}
    assert counted(data) == [A, B]
    assert rated(data) == ratings.RankedResult("m1", A, B)


def test_a_repeat_opponent_pays_moves_and_rates_no_one() -> None:
    data = ended(DayTally(pairs={"a|b": 3}))
    assert paid(data) == {}
    assert counted(data) == []
    assert rated(data) is None


def test_past_the_daily_coin_limit_xp_and_rating_still_count() -> None:
    data = ended(DayTally(coins={A: DAILY_COIN_MATCHES}))
    assert paid(data) == {B: 20}
    assert counted(data) == [A, B]
    assert rated(data) == ratings.RankedResult("m1", A, B)


def test_an_early_ranked_concede_costs_the_leaver_a_loss_and_gives_nothing_else() -> None:
    data = ended(winner=B, loser=A, turns=1, reason="concede")
    assert paid(data) == {} and counted(data) == []
    result = rated(data)
    assert result == ratings.RankedResult("m1", B, A, frozenset({B}))
    (loss,) = ratings.rate(result, ratings.PlayerRating(B), ratings.PlayerRating(A))
    assert (loss.player_id, loss.result, loss.delta) == (A, "loss", -20)


def test_an_operator_match_counts_nothing_whatever_its_verdict_claims() -> None:
    data = ended(mode="admin")
    data["verdict"] = {p: {"coins": True, "xp": True, "rating": True} for p in (A, B)}
    assert paid(data) == {}
    assert counted(data) == []
    assert rated(data) is None


def test_an_event_from_before_verdicts_is_read_by_the_rule_of_its_time() -> None:
    data = ended()
    del data["verdict"]
    assert paid(data) == {A: 60, B: 20}
    assert rated(data) == ratings.RankedResult("m1", A, B)
    early = {**data, "turns": 2, "winner": B, "loser": A, "reason": "concede"}
    assert paid(early) == {} and rated(early) is None
