"""The fair-play rule: which ended match counts, for whom, for what, and why not."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from libs.fairplay import (
    DAILY_COIN_MATCHES,
    PAIR_DAILY_MATCHES,
    DayTally,
    MatchEnd,
    Verdict,
    decide,
    explain,
    may_rematch,
    record,
    verdicts_of,
)

A, B, C = "a", "b", "c"


def end(mode: str = "ranked", turns: int = 6, winner: str | None = A, reason: str = "hero_killed", **kw: Any):
    return MatchEnd(mode, (A, B), winner, turns, reason if winner else "draw", kw.get("bot"))


def test_a_long_ranked_match_counts_fully_for_both() -> None:
    verdicts = decide(end(), DayTally())
    assert verdicts == {A: Verdict(True, True, True), B: Verdict(True, True, True)}


def test_casual_pays_and_moves_no_rating_and_draws_move_no_rating() -> None:
    casual = decide(end("casual"), DayTally())[A]
    assert (casual.coins, casual.xp, casual.rating, casual.reasons) == (
        True,
        True,
        False,
        {"rating": "not_ranked"},
    )
    draw = decide(end(winner=None), DayTally())[B]
    assert (draw.coins, draw.rating, draw.reasons) == (True, False, {"rating": "draw"})


def test_practice_and_admin_count_nothing_whatever_they_hold() -> None:
    for mode in ("practice", "admin"):
        for v in decide(end(mode, turns=20), DayTally()).values():
            assert not v.counts and v.reasons == {"coins": "mode", "xp": "mode", "rating": "mode"}


def test_the_fourth_counting_match_of_a_pair_in_a_day_counts_nothing() -> None:
    day = DayTally()
    for _ in range(PAIR_DAILY_MATCHES):
        verdicts = decide(end(), day)
        assert all(v.counts for v in verdicts.values())
        day = record(day, (A, B), verdicts)
    fourth = decide(end(winner=B), day)
    assert all(not v.counts for v in fourth.values())
    assert fourth[A].reasons == dict.fromkeys(("coins", "xp", "rating"), "repeat_opponent")
    assert fourth[A].to_data()["message"] == "repeat opponent"
    # the same players against someone else still count
    assert decide(MatchEnd("ranked", (A, C), A, 6, "hero_killed"), day)[A].counts


def test_short_matches_do_not_use_up_the_pairs_matches() -> None:
    day = DayTally()
    for _ in range(5):
        day = record(day, (A, B), decide(end("casual", turns=2, reason="concede"), day))
        early = decide(end(turns=1, reason="concede"), day)
        assert early[B].rating  # the leaver's loss counts...
        day = record(day, (A, B), early)
    assert day.pair_matches("a|b") == 0  # ...but uses none of the pair's paying matches
    assert decide(end("casual"), day)[A].counts


def test_the_eleventh_paying_match_of_a_day_pays_xp_and_rating_but_no_coins() -> None:
    day = DayTally(coins={A: DAILY_COIN_MATCHES})
    v = decide(end(), day)
    assert (v[A].coins, v[A].xp, v[A].rating) == (False, True, True)
    assert v[A].reasons == {"coins": "daily_coin_limit"}
    assert v[A].to_data()["message"] == "daily coin limit reached"
    assert v[B].coins  # the other player still has paying matches
    assert record(day, (A, B), v).coins == {A: DAILY_COIN_MATCHES, B: 1}


def test_an_early_ranked_concede_costs_the_leaver_a_loss_and_pays_no_one() -> None:
    for reason in ("concede", "timeouts", "disconnect"):
        v = decide(end(turns=1, winner=B, reason=reason), DayTally())
        assert (v[A].coins, v[A].xp, v[A].rating) == (False, False, True)
        assert (v[B].coins, v[B].xp, v[B].rating) == (False, False, False)
        assert v[B].reasons["rating"] == "early_concede"


def test_early_ends_not_chosen_by_a_player_and_early_casual_concedes_move_nothing() -> None:
    assert not any(v.counts for v in decide(end(turns=3, winner=None), DayTally()).values())
    assert not any(v.counts for v in decide(end(turns=3, reason="hero_killed"), DayTally()).values())
    assert not any(v.counts for v in decide(end("casual", turns=3, reason="concede"), DayTally()).values())


def test_a_published_verdict_round_trips_and_is_what_consumers_read() -> None:
    verdicts = decide(end(), DayTally(pairs={"a|b": PAIR_DAILY_MATCHES}))
    data = {
        "mode": "ranked", "players": [A, B], "winner": A, "loser": B, "draw": False, "turns": 9,
        "reason": "hero_killed", "verdict": {p: v.to_data() for p, v in verdicts.items()},
    }  # fmt: skip
    read = verdicts_of(data)
    assert read == verdicts and not read[A].counts


def test_an_event_without_verdict_is_read_by_the_rule_of_its_time() -> None:
    old = {"mode": "ranked", "players": [A, B], "winner": B, "draw": False, "turns": 2, "reason": "concede"}
    assert not any(v.counts for v in verdicts_of(old).values())  # no early-concede loss back then
    assert all(v.rating and v.coins for v in verdicts_of({**old, "turns": 4}).values())
    casual = verdicts_of({**old, "mode": "casual", "turns": 8})
    assert all(v.coins and v.xp and not v.rating for v in casual.values())


def test_malformed_events_count_for_no_one() -> None:
    good = {"mode": "ranked", "players": [A, B], "winner": A, "draw": False, "turns": 8, "reason": "x"}
    for bad in (
        {**good, "players": [A, A]},
        {**good, "winner": C},
        {**good, "turns": "8"},
        {**good, "players": A},
    ):
        assert verdicts_of(bad) == {}


def test_explain_gives_the_words_players_see() -> None:
    assert explain("repeat_opponent") == "repeat opponent"
    assert explain("daily_coin_limit") == "daily coin limit reached"


def test_rematch_only_once_both_waited_a_minute() -> None:
    assert not may_rematch(59.9, 600)
    assert may_rematch(60, 60)


matches = st.lists(
    st.tuples(
        st.sampled_from([(A, B), (B, A), (A, C), (B, C)]),
        st.sampled_from(["ranked", "casual", "practice", "admin"]),
        st.integers(0, 12),
        st.sampled_from(["hero_killed", "concede", "timeouts", "disconnect", "draw"]),
        st.booleans(),
    ),
    max_size=60,
)


@given(matches)
def test_a_day_never_pays_past_the_limits(day_of_matches: list[Any]) -> None:
    day, paid, counted = DayTally(), dict.fromkeys((A, B, C), 0), {}
    for players, mode, turns, how, first_wins in day_of_matches:
        winner = None if how == "draw" else players[0 if first_wins else 1]
        e = MatchEnd(mode, players, winner, turns, how)
        verdicts = decide(e, day)
        for p, v in verdicts.items():
            paid[p] += v.coins
            assert v.counts <= (mode in ("ranked", "casual"))
            assert not (v.coins or v.xp) or turns >= 4
            assert not v.rating or mode == "ranked"
            assert not (v.rating and p == winner and turns < 4)  # no one gains from an early end
        if any(v.coins or v.xp for v in verdicts.values()):
            counted[e.pair] = counted.get(e.pair, 0) + 1
        assert not any(v.counts for v in verdicts.values()) or day.pair_matches(e.pair) < PAIR_DAILY_MATCHES
        day = record(day, players, verdicts)
    assert all(n <= DAILY_COIN_MATCHES for n in paid.values())
    assert all(n <= PAIR_DAILY_MATCHES for n in counted.values())
