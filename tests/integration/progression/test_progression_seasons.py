"""Days and seasons come from the MatchEnded envelope's UTC date: a match ending after the season's
end counts for the next season; quests belong to the day the match ended; the clock moves through
days without sleeping."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from psycopg_pool import ConnectionPool

from libs.kit import definition
from libs.kit.consume import subscription_runner
from services.progression.service import ProgressionService
from tests.integration.progression.conftest import events_of, match_ended, move_clock_to


def _apply_all(pool: ConnectionPool, progression: ProgressionService, events: list[Any]) -> None:
    [sub, _sessions] = definition("progression").subscriptions  # and the kit's
    runner = subscription_runner(sub, progression, pool, progression.schema, "unused:9092")
    for e in events:
        assert runner.apply(e)


def test_a_match_after_the_seasons_end_counts_for_the_next_season(
    pool: ConnectionPool, progression: ProgressionService, make_client: Any
) -> None:
    ada, bob = make_client(), make_client()
    pair = (ada.id, bob.id)
    last_minute = dt.datetime(2026, 12, 31, 23, 59, 30, tzinfo=dt.UTC)
    new_year = dt.datetime(2027, 1, 1, 0, 0, 30, tzinfo=dt.UTC)
    _apply_all(
        pool,
        progression,
        [
            match_ended(pair, ada.id, last_minute),  # 2026-q4: ada +60, bob +25
            match_ended(pair, bob.id, new_year),  # 2027-q1: ada +25, bob +60
            match_ended(pair, None, new_year),  # a draw: 25 each
        ],
    )
    xp_events = [d for _, d in events_of(pool, progression.schema, ("PassXpEarned",))]
    from_matches = [(d["player_id"], d["season_id"], d["xp"]) for d in xp_events if "match_id" in d["source"]]
    assert sorted(from_matches) == sorted(
        [
            (ada.id, "2026-q4", 60),
            (bob.id, "2026-q4", 25),
            (ada.id, "2027-q1", 25),
            (bob.id, "2027-q1", 60),
            (ada.id, "2027-q1", 25),
            (bob.id, "2027-q1", 25),
        ]
    )
    # Quests completed by those matches (the draw decides which) pay XP in the season of their day.
    completed = [d for _, d in events_of(pool, progression.schema, ("QuestCompleted",))]
    season_of_day = {"2026-12-31": "2026-q4", "2027-01-01": "2027-q1"}
    assert sorted(
        (d["player_id"], d["season_id"], d["xp"]) for d in xp_events if "quest_id" in d["source"]
    ) == sorted((c["player_id"], season_of_day[c["day"]], c["xp"]) for c in completed)
    offered = {d["day"] for _, d in events_of(pool, progression.schema, ("QuestsOffered",))}
    assert offered == {"2026-12-31", "2027-01-01"}

    def season_xp(player: str, season: str) -> int:
        return sum(d["xp"] for d in xp_events if d["player_id"] == player and d["season_id"] == season)

    move_clock_to(dt.date(2026, 12, 31))
    assert ada.get("/v1/pass").get_json()["season"]["id"] == "2026-q4"
    assert ada.get("/v1/pass").get_json()["xp"] == season_xp(ada.id, "2026-q4") >= 60
    move_clock_to(dt.date(2027, 1, 1))
    now = ada.get("/v1/pass").get_json()
    assert (now["season"]["id"], now["xp"]) == ("2027-q1", season_xp(ada.id, "2027-q1"))
    assert now["xp"] >= 50 and now["level"] == now["xp"] // 600
    assert bob.get("/v1/pass").get_json()["xp"] == season_xp(bob.id, "2027-q1") >= 85
    assert ada.get("/v1/quests").get_json()["day"] == "2027-01-01"


def test_the_streak_view_follows_the_clock(
    pool: ConnectionPool, progression: ProgressionService, make_client: Any
) -> None:
    from tests.integration.progression.conftest import logged_in

    ada = make_client()
    day = dt.date(2026, 12, 10)
    at = dt.datetime(2026, 12, 10, 7, tzinfo=dt.UTC)
    _apply_all(pool, progression, [logged_in(ada.id, at), logged_in(ada.id, at + dt.timedelta(hours=5))])
    move_clock_to(day)
    view = ada.get("/v1/streak").get_json()
    assert (view["streak_day"], view["kept_today"]) == (1, True)
    assert view["history"][-1] == {"day": "2026-12-10", "kept": True, "streak_day": 1, "forgiven": False}
    move_clock_to(day + dt.timedelta(days=2))  # one missed day, forgiveness held: the streak can go on
    view = ada.get("/v1/streak").get_json()
    assert (view["streak_day"], view["kept_today"], view["forgiveness"]["available"]) == (1, False, True)
    move_clock_to(day + dt.timedelta(days=3))  # two missed days: lost
    assert ada.get("/v1/streak").get_json()["streak_day"] == 0
    rewards = events_of(pool, progression.schema, ("RewardGranted",))
    assert [d["reward_id"] for _, d in rewards] == [f"streak:{ada.id}:2026-12-10"]


def test_past_seasons_cosmetics_stay_listed_and_xp_counts_in_2028(
    pool: ConnectionPool, progression: ProgressionService, make_client: Any
) -> None:
    """Issue 17, finding 10: seasons come from a rule (a match of 2028 earned nothing under the old
    table), and a player lists the cosmetics of every season they reached a level in."""
    from services.progression.domain import season_by_id
    from services.progression.views import track_of

    ada = make_client()

    def wins(first: dt.datetime, n: int) -> list[Any]:
        return [
            match_ended((ada.id, str(uuid.uuid4())), ada.id, first + dt.timedelta(minutes=i))
            for i in range(n)
        ]

    _apply_all(
        pool,
        progression,
        [
            *wins(dt.datetime(2026, 12, 10, 12, tzinfo=dt.UTC), 10),
            *wins(dt.datetime(2028, 2, 1, 12, tzinfo=dt.UTC), 20),
        ],
    )
    move_clock_to(dt.date(2028, 2, 1))
    now = ada.get("/v1/pass").get_json()
    assert now["season"]["id"] == "2028-q1" and now["xp"] >= 20 * 60 and now["level"] >= 2
    listed = ada.get("/v1/pass/cosmetics").get_json()["seasons"]
    assert [s["season"]["id"] for s in listed] == ["2028-q1", "2026-q4"]
    assert listed[0]["level"] == now["level"] and listed[0]["unlocked"] == now["unlocked"]
    past = season_by_id("2026-q4")
    assert past is not None and listed[1]["level"] >= 1
    assert listed[1]["unlocked"] == [lv["reward"] for lv in track_of(past)[: listed[1]["level"]]]
    assert listed[1]["unlocked"][0] == {
        "id": "2026q4-card_back-1",
        "kind": "card_back",
        "name": "Empress card back 1",
    }
    assert make_client().get("/v1/pass/cosmetics").get_json() == {"seasons": []}
