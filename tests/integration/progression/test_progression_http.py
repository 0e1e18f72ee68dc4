"""The HTTP contract: today's quests, one swap a day, bad input refused with nothing written,
the streak and pass views, the day's arcana."""

from __future__ import annotations

import datetime as dt
from typing import Any

from libs import clock
from libs.games.arcana import ARCANA, daily_arcana
from services.progression.domain import QUESTS


def _assert_error(r: Any, status: int, code: str) -> None:
    assert r.status_code == status, r.get_json()
    body = r.get_json()
    assert set(body) == {"error"} and body["error"]["code"] == code and body["error"]["message"]


def test_todays_quests_one_per_difficulty_offered_once(make_client: Any, counts: Any) -> None:
    ada = make_client()
    first = ada.get("/v1/quests")
    assert first.status_code == 200
    body = first.get_json()
    assert body["day"] == clock.now().date().isoformat() and body["swap_available"] is True
    assert [q["difficulty"] for q in body["quests"]] == ["easy", "standard", "hard"]
    for q in body["quests"]:
        assert q["progress"] == 0 and q["completed"] is False
        assert (q["target"], q["coins"], q["xp"]) == (
            QUESTS[q["id"]].target,
            QUESTS[q["id"]].coins,
            QUESTS[q["id"]].xp,
        )
    written = counts()
    assert ada.get("/v1/quests").get_json() == body  # the same offer, nothing more written
    assert counts() == written and written["events"] == 1


def test_one_swap_a_day_for_the_same_difficulty(make_client: Any, counts: Any) -> None:
    ada = make_client()
    before = ada.get("/v1/quests").get_json()["quests"]
    standard = before[1]["id"]
    r = ada.post(f"/v1/quests/{standard}/swap")
    assert r.status_code == 200, r.get_json()
    after = r.get_json()
    assert after["swap_available"] is False
    assert after["quests"][1]["difficulty"] == "standard" and after["quests"][1]["id"] != standard
    assert [q["id"] for q in after["quests"]][::2] == [q["id"] for q in before][::2]
    written = counts()
    _assert_error(ada.post(f"/v1/quests/{before[0]['id']}/swap"), 409, "swap_used")
    assert counts() == written


def test_bad_swaps_are_refused_and_write_nothing(make_client: Any, counts: Any) -> None:
    ada, bob = make_client(), make_client()
    mine = {q["id"] for q in ada.get("/v1/quests").get_json()["quests"]}
    theirs = {q["id"] for q in bob.get("/v1/quests").get_json()["quests"]}
    written = counts()
    not_offered = sorted(set(QUESTS) - mine)[0]
    _assert_error(ada.post(f"/v1/quests/{not_offered}/swap"), 404, "quest_not_offered")
    for other in sorted(theirs - mine):  # another player's quest id
        _assert_error(ada.post(f"/v1/quests/{other}/swap"), 404, "quest_not_offered")
    _assert_error(ada.post("/v1/quests/no-such-quest/swap"), 404, "quest_not_offered")
    _assert_error(ada.post("/v1/quests/" + "x" * 500 + "/swap"), 404, "quest_not_offered")
    _assert_error(ada.client.post(f"/v1/quests/{sorted(mine)[0]}/swap"), 401, "unauthorized")
    assert counts() == written
    assert ada.get("/v1/quests").get_json()["swap_available"] is True


def test_a_refused_swap_before_any_look_writes_not_even_the_offer(make_client: Any, counts: Any) -> None:
    written = counts()
    _assert_error(make_client().post("/v1/quests/easy-spells-x/swap"), 404, "quest_not_offered")
    assert counts() == written


def test_the_days_arcana_is_the_rules_engines(make_client: Any, progression_app: Any, counts: Any) -> None:
    client = progression_app.test_client()
    today = clock.now().date().isoformat()
    r = client.get("/v1/arcana/today")
    assert r.status_code == 200 and r.get_json() == {
        "date": today,
        "arcana": ARCANA[daily_arcana(today)].to_dict(),
    }
    for day in ("2026-01-01", "2027-06-15", "2026-11-30"):
        assert client.get(f"/v1/arcana/today?date={day}").get_json()["arcana"]["id"] == daily_arcana(day)
    written = counts()
    for bad in ("2026-13-01", "yesterday", "2026-02-30", "", "2026-1-1x"):
        _assert_error(client.get(f"/v1/arcana/today?date={bad}"), 422, "validation_error")
    _assert_error(client.get("/v1/arcana/today?day=2026-01-01"), 422, "validation_error")
    assert counts() == written


def test_streak_and_pass_of_a_new_player(make_client: Any) -> None:
    ada = make_client()
    streak = ada.get("/v1/streak").get_json()
    assert streak["streak_day"] == 0 and streak["kept_today"] is False
    assert streak["forgiveness"] == {"available": True, "next_available_on": None, "cooldown_days": 7}
    assert len(streak["history"]) == 30 and not any(d["kept"] for d in streak["history"])
    assert streak["history"][-1]["day"] == clock.now().date().isoformat()
    season = ada.get("/v1/pass").get_json()
    assert (season["level"], season["xp"], season["unlocked"]) == (0, 0, [])
    assert season["season"]["start"] <= clock.now().date().isoformat() <= season["season"]["end"]
    track = ada.get("/v1/pass/track").get_json()
    assert [lv["level"] for lv in track["levels"]] == list(range(1, 31))
    assert {lv["reward"]["kind"] for lv in track["levels"]} == {"card_back", "avatar", "title"}
    assert track["levels"][-1]["xp_required"] == 18000
    for path in ("/v1/streak", "/v1/pass", "/v1/pass/track", "/v1/quests"):
        _assert_error(ada.client.get(path), 401, "unauthorized")


def test_seasons_go_on_after_the_former_table_ended(make_client: Any) -> None:
    """Issue 17, finding 10: the table ended on 2027-12-31 and /v1/pass answered 404 after it."""
    from tests.integration.progression.conftest import move_clock_to

    move_clock_to(dt.date(2028, 3, 1))
    body = make_client().get("/v1/pass").get_json()
    assert body["season"] == {
        "id": "2028-q1",
        "name": "Season of Strength",
        "start": "2028-01-01",
        "end": "2028-03-31",
    }


def test_a_retried_swap_with_an_idempotency_key_answers_the_first_result(
    make_client: Any, counts: Any
) -> None:
    ada = make_client()
    quest = ada.get("/v1/quests").get_json()["quests"][2]["id"]
    key = {"Authorization": f"Bearer {ada.token}", "Idempotency-Key": "swap-1"}
    first = ada.client.post(f"/v1/quests/{quest}/swap", headers=key)
    assert first.status_code == 200, first.get_json()
    written = counts()
    again = ada.client.post(f"/v1/quests/{quest}/swap", headers=key)
    assert again.status_code == 200 and again.get_json() == first.get_json()
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert counts() == written
    assert first.get_json()["quests"][2]["id"] != quest and first.get_json()["swap_available"] is False


def test_swap_available_is_false_when_every_quest_is_completed(
    make_client: Any, progression: Any, pool: Any
) -> None:
    """Issue 17, finding 10: a completed quest cannot be swapped, so with all three completed no
    swap is possible, and the answer says so."""
    from psycopg import sql

    ada = make_client()
    assert ada.get("/v1/quests").get_json()["swap_available"] is True
    with pool.connection() as conn:  # the read model as three completions leave it
        conn.execute(
            sql.SQL("UPDATE {} SET completed = true WHERE player_id = %s").format(
                sql.Identifier(progression.schema, "quest_progress")
            ),
            (ada.id,),
        )
    assert ada.get("/v1/quests").get_json()["swap_available"] is False
