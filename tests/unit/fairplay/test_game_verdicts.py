"""Each row of the verdict table per game (the line's practice, casual and ranked; the arena's casual
and practice; Arcana unchanged), and the daily limits shared across games."""

from __future__ import annotations

from typing import Any

from libs import fairplay
from libs.fairplay import DayTally, MatchEnd, Verdict, decide, record
from libs.games import registry

A, B, C, D, BOT = "a", "b", "c", "d", "bot-1"


def line(mode: str, winner: str = A, loser: str = B, **kw: Any) -> MatchEnd:
    bot = BOT if BOT in (winner, loser) else None
    return MatchEnd(mode, (winner, loser), winner, kw.get("turns", 3), "line_dead", bot, "winner_paid")


def arena(mode: str = "casual", players: tuple[str, ...] = (A, B, C), turns: int = 12, **kw: Any) -> MatchEnd:
    return MatchEnd(
        mode, players, players[0], turns, kw.get("reason", "rounds"), kw.get("bot"), "casual_only"
    )


def flags(v: Verdict) -> tuple[bool, bool, bool]:
    return v.coins, v.xp, v.rating


def test_line_practice_gives_the_human_winner_xp_only_and_a_loss_nothing() -> None:
    won = decide(line("practice", A, BOT), DayTally())
    assert flags(won[A]) == (False, True, False) and not won[BOT].counts
    lost = decide(line("practice", BOT, A), DayTally())
    assert not lost[A].counts and lost[A].reasons["xp"] == "winner_only"


def test_line_casual_pays_the_winner_coins_and_xp_and_the_loser_nothing_whatever_the_length() -> None:
    v = decide(line("casual", turns=1), DayTally())
    assert flags(v[A]) == (True, True, False) and flags(v[B]) == (False, False, False)
    assert v[B].reasons == {"coins": "winner_only", "xp": "winner_only", "rating": "not_ranked"}


def test_line_ranked_pays_both_coins_moves_both_ratings_and_gives_no_xp() -> None:
    v = decide(line("ranked", turns=1), DayTally())
    assert flags(v[A]) == flags(v[B]) == (True, False, True)
    assert v[A].to_data()["message"] is None  # how the mode pays is no news


def test_arena_casual_pays_every_place_and_moves_no_rating() -> None:
    v = decide(arena(players=(A, B, C, D)), DayTally())
    assert all(flags(x) == (True, True, False) for x in v.values()) and len(v) == 4


def test_arena_practice_admin_and_a_short_casual_pay_nothing() -> None:
    practice = decide(arena("practice", (A, BOT, "bot-2"), bot=BOT), DayTally())
    assert all(x.reasons == {"coins": "mode", "xp": "mode", "rating": "mode"} for x in practice.values())
    assert not any(x.counts for x in decide(arena("admin"), DayTally()).values())
    short = decide(arena(turns=2, reason="concede"), DayTally())
    assert all(x.reasons["coins"] == "too_short" for x in short.values())


def test_arcana_is_unchanged() -> None:
    v = decide(MatchEnd("casual", (A, B), A, 6, "hero_killed"), DayTally())
    assert flags(v[A]) == flags(v[B]) == (True, True, False)


def test_the_pair_limit_is_shared_across_games_and_applies_to_each_pair_at_a_table() -> None:
    day = DayTally()
    for end in (line("casual"), arena(players=(A, B)), line("ranked", B, A)):
        verdicts = decide(end, day)
        assert any(v.counts for v in verdicts.values())
        day = record(day, end.players, verdicts)
    assert day.pair_matches(line("casual").pair) == fairplay.PAIR_DAILY_MATCHES
    table = decide(arena(players=(A, B, C)), day)  # a and b met three times today; c did not
    assert not table[A].counts and not table[B].counts and table[A].reasons["coins"] == "repeat_opponent"
    assert flags(table[C]) == (True, True, False)


def test_the_daily_coin_limit_counts_paying_matches_of_every_game() -> None:
    day = DayTally({}, {A: fairplay.DAILY_COIN_MATCHES - 1})
    first = decide(line("casual", A, C), day)
    assert first[A].coins
    day = record(day, (A, C), first)
    assert day.coin_matches(A) == fairplay.DAILY_COIN_MATCHES
    v = decide(arena(players=(A, D)), day)
    assert flags(v[A]) == (False, True, False) and v[A].reasons["coins"] == "daily_coin_limit"


def test_a_published_arena_verdict_of_four_players_is_read_and_bounded_by_the_rule() -> None:
    players = [A, B, C, D]
    data = {
        "game": "arena",
        "mode": "practice",
        "players": players,
        "winner": A,
        "turns": 20,
        "reason": "rounds",
        "bot": None,
        "verdict": {p: Verdict(True, True, False).to_data() for p in players},
    }
    arena, line = registry.fair_play("arena"), registry.fair_play("line")
    assert all(not v.counts for v in fairplay.verdicts_of(data, arena).values())  # practice pays nothing
    casual = fairplay.verdicts_of({**data, "mode": "casual"}, arena)
    assert set(casual) == set(players) and all(v.coins and v.xp for v in casual.values())
    assert fairplay.verdicts_of({**data, "players": [A, B, C, D, "e"]}, arena) == {}  # no table of five
    assert (
        fairplay.verdicts_of({**data, "game": "line", "players": [A, B, C]}, line) == {}
    )  # the line seats two
