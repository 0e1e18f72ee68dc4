"""The daily coin limit as economy shows and obeys it (issue 17, finding 2): a MatchEnded pays the
coins its verdict says, and ``/v1/wallet`` counts the matches that paid the player coins today (UTC)
in ``paying_matches_left``."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from libs import clock, fairplay
from libs.contracts import MatchEnded
from services.economy.domain.credits import match_credits
from services.economy.service import EconomyService


def _ended(a: str, b: str, **verdict: Any) -> MatchEnded:
    return MatchEnded.decode_data({
        "match_id": str(uuid.uuid4()), "mode": "casual", "players": [a, b], "winner": a, "loser": b,
        "draw": False, "turns": 8, "round": 5, "reason": "hero_killed", "verdict": verdict,
    })  # fmt: skip


def test_the_wallet_counts_todays_paying_matches_and_a_refused_one_pays_nothing(
    svc: EconomyService, client: Any
) -> None:
    me = client()
    other = str(uuid.uuid4())
    assert me.get("/v1/wallet").get_json()["paying_matches_left"] == fairplay.DAILY_COIN_MATCHES
    paid = fairplay.Verdict(True, True, False).to_data()
    for _ in range(3):
        for credit in match_credits(_ended(me.id, other, **{me.id: paid, other: paid}), clock.now()):
            if credit.player_id == me.id:
                svc.credit(credit)
    wallet = me.get("/v1/wallet").get_json()
    assert wallet["paying_matches_left"] == fairplay.DAILY_COIN_MATCHES - 3
    limited = fairplay.Verdict(False, True, False, {"coins": "daily_coin_limit"}).to_data()
    assert [
        c.player_id for c in match_credits(_ended(me.id, other, **{me.id: limited, other: paid}), clock.now())
    ] == [other]
    # the next UTC day starts again from ten
    tomorrow = dt.datetime.combine(clock.now().date() + dt.timedelta(days=1), dt.time(0, 0, 1), dt.UTC)
    clock.set_offset((tomorrow - clock.now()).total_seconds())
    try:
        assert me.get("/v1/wallet").get_json()["paying_matches_left"] == fairplay.DAILY_COIN_MATCHES
        assert me.get("/v1/wallet").get_json()["coins"] == wallet["coins"]
    finally:
        clock.set_offset(0)
