"""Issue 17's scripts, every process real (``make run``'s command lines): one person with two accounts
tries to farm and boost, and gains nothing past what docs/rules.md ("Fair play") allows.

- queue twice: while their match runs, the main account queues again: 409 ``match_in_progress``;
- concede at turn 4 in a loop (casual): of four such matches between the two accounts in a UTC day,
  three pay coins and XP; the fourth pays nothing and says why ("repeat opponent");
- trade wins (ranked): the two accounts meet again only once both waited 60 s, and of four ranked
  matches between them in a day three move the ratings, the fourth nothing;
- dodge at the mulligan (ranked): the one who concedes loses rating as usual, the other gains nothing,
  no one is paid.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from harness.stack import Stack
from libs.games.arcana import STARTER_DECK
from tests.e2e.test_economy_e2e import consumed, eventually, register, wallet
from tests.e2e.test_match_e2e import Client
from tests.e2e.test_ranked_e2e import matched, queued_match, ticket

pytestmark = pytest.mark.e2e


def accounts(stack: Stack) -> tuple[Client, Client]:
    """Two registered accounts of one person, their wallets open."""
    main, alt = register(stack)[0], register(stack)[0]
    for p in (main, alt):
        eventually(lambda p=p: wallet(stack, p), 60, "the wallet")
    return main, alt


def queue_after(c: Client, mode: str, previous: str) -> dict[str, Any]:
    """Queue once matchmaking has read the end of ``previous`` (until then: 409 naming it)."""

    def attempt() -> dict[str, Any] | None:
        r = c.http.post(f"{c.url}/v1/queue", json={"mode": mode}, timeout=10)
        if r.status_code == 409 and r.json()["error"]["details"] == {"match_id": previous}:
            return None
        assert r.status_code == 202, r.text
        return dict(r.json())

    return dict(eventually(attempt, 30, f"the end of {previous} read by matchmaking"))


def again(a: Client, b: Client, mode: str, previous: str) -> str:
    """Both queue again after ``previous`` and are paired: the match id."""
    ta, tb = queue_after(a, mode, previous), queue_after(b, mode, previous)
    match_id = matched(a, ta["ticket_id"])
    assert matched(b, tb["ticket_id"]) == match_id
    return match_id


def _act(c: Client, match_id: str) -> None:
    """Keep the hand, or end the turn: nothing else (the quickest way to turn 4)."""
    legal = c.get(f"/v1/matches/{match_id}/legal-commands")
    moves = [
        m for m in legal["commands"] if m["type"] == "end_turn" or m == {"type": "mulligan", "cards": []}
    ]
    if moves:
        body = {**moves[0], "expected_version": legal["version"]}
        r = c.http.post(f"{c.url}/v1/matches/{match_id}/commands", json=body, timeout=40)
        assert r.status_code in (200, 409), r.text


def concede_at(conceder: Client, other: Client, match_id: str, turn: int) -> dict[str, Any]:
    """Both accounts only pass until ``turn`` is played (0: the mulligan), then ``conceder`` concedes;
    the MatchEnded as the players see it."""
    deadline = time.monotonic() + 60
    while (view := conceder.view(match_id))["turn"] < turn or (turn and view["phase"] != "playing"):
        assert time.monotonic() < deadline and view["phase"] != "ended", view
        for c in (conceder, other):
            _act(c, match_id)
    r = conceder.http.post(
        f"{conceder.url}/v1/matches/{match_id}/commands", json={"type": "concede"}, timeout=40
    )
    assert r.status_code == 200, r.text
    events = conceder.get(f"/v1/matches/{match_id}/events")["events"]
    assert events[-1]["type"] == "MatchEnded"
    return dict(events[-1]["data"])


def coins_for_matches(c: Client) -> list[int]:
    return [e["amount"] for e in c.get("/v1/wallet/history")["entries"] if e["reason"] == "match"]


def settled(stack: Stack, match_ids: list[str]) -> None:
    """Until economy consumed every MatchEnded (progression and ratings read the same topic)."""
    for m in match_ids:
        eventually(lambda m=m: consumed(stack, f"match-{m}", "MatchEnded"), 60, f"match {m} consumed")


def rematch_after_60_s(stack: Stack, a: Client, b: Client, previous: str) -> str:
    """Queue both again: not paired before both waited 60 s (polling, as clients do), then paired."""
    ta, tb = queue_after(a, "ranked", previous), queue_after(b, "ranked", previous)
    time.sleep(3)  # three pairing passes
    assert ticket(a, ta["ticket_id"])["status"] == "waiting"
    for step in (25, 25, 11):
        stack.advance_clock(step)
        assert ticket(b, tb["ticket_id"])["status"] in ("waiting", "paired", "matched")
        assert ticket(a, ta["ticket_id"])["status"] in ("waiting", "paired", "matched")
    match_id = matched(a, ta["ticket_id"])
    assert matched(b, tb["ticket_id"]) == match_id
    return match_id


def test_queue_twice_and_concede_at_turn_4_in_a_loop_pay_three_matches(stack: Stack) -> None:
    main, alt = accounts(stack)
    first = queued_match(main, alt, "casual")
    refused = main.http.post(f"{main.url}/v1/queue", json={"mode": "ranked"}, timeout=10)
    assert refused.status_code == 409, refused.text
    assert refused.json()["error"]["code"] == "match_in_progress"
    assert refused.json()["error"]["details"] == {"match_id": first}

    ended = [concede_at(alt, main, first, 4)]
    ids = [first]
    for _ in range(3):
        ids.append(again(main, alt, "casual", ids[-1]))
        ended.append(concede_at(alt, main, ids[-1], 4))
    assert all(e["turns"] >= 4 and e["winner"] == main.id for e in ended)
    assert [e["verdict"][main.id]["coins"] for e in ended] == [True, True, True, False]
    assert ended[-1]["verdict"][main.id]["message"] == "repeat opponent"
    assert ended[-1]["verdict"][alt.id]["reasons"] == dict.fromkeys(("coins", "xp"), "repeat_opponent") | {
        "rating": "not_ranked"
    }
    settled(stack, ids)
    assert sorted(coins_for_matches(main)) == [60, 60, 60]
    assert sorted(coins_for_matches(alt)) == [20, 20, 20]
    assert wallet(stack, main)["paying_matches_left"] == 7  # type: ignore[index]
    for c, xp in ((main, 60), (alt, 25)):
        quests = c.get("/v1/quests")["quests"]
        quest_xp = sum(q["xp"] for q in quests if q["completed"])
        eventually(lambda c=c, want=3 * xp + quest_xp: c.get("/v1/pass")["xp"] == want, 60, "the pass XP")


def test_traded_ranked_wins_need_60_s_between_rematches_and_stop_counting_after_three(stack: Stack) -> None:
    main, alt = accounts(stack)
    ids = [queued_match(main, alt, "ranked")]
    concede_at(alt, main, ids[0], 4)
    for conceder, winner in ((main, alt), (alt, main), (main, alt)):  # trade wins
        ids.append(rematch_after_60_s(stack, main, alt, ids[-1]))
        assert concede_at(conceder, winner, ids[-1], 4)["winner"] == winner.id
    settled(stack, ids)

    def history(c: Client) -> list[dict[str, Any]]:
        return list(reversed(c.get("/v1/ratings/me/history")["items"]))  # oldest first

    eventually(lambda: len(history(main)) == len(history(alt)) == 4, 60, "four ranked matches in the history")
    for c in (main, alt):
        rows = history(c)
        assert [h["match_id"] for h in rows] == ids
        assert [(h["reason"], h["message"]) for h in rows][3] == ("repeat_opponent", "repeat opponent")
        assert all(h["reason"] is None and h["delta"] != 0 for h in rows[:3]) and rows[3]["delta"] == 0
    assert main.get("/v1/ratings/me")["games"] == alt.get("/v1/ratings/me")["games"] == 3
    assert sorted(coins_for_matches(main)) == [20, 60, 60] and sorted(coins_for_matches(alt)) == [20, 20, 60]


def test_a_dodge_at_the_mulligan_costs_the_dodger_and_pays_no_one(stack: Stack) -> None:
    main, alt = accounts(stack)
    match_id = queued_match(main, alt, "ranked")
    ended = concede_at(alt, main, match_id, 0)
    assert (ended["turns"], ended["winner"]) == (0, main.id)
    settled(stack, [match_id])
    eventually(lambda: alt.get("/v1/ratings/me")["games"] == 1, 60, "the dodger's loss")
    assert alt.get("/v1/ratings/me")["rating"] == 880  # a normal loss against 900
    mine = main.get("/v1/ratings/me")
    assert (mine["rating"], mine["games"]) == (900, 0)
    assert ended["verdict"][main.id]["reasons"]["rating"] == "early_concede"
    eventually(lambda: len(main.get("/v1/ratings/me/history")["items"]) == 1, 60, "the winner's history")
    (row,) = main.get("/v1/ratings/me/history")["items"]
    assert (row["match_id"], row["result"], row["delta"], row["reason"]) == (
        match_id,
        "win",
        0,
        "early_concede",
    )
    assert coins_for_matches(main) == coins_for_matches(alt) == []


def test_an_operator_match_is_admin_and_pays_and_moves_nothing(stack: Stack) -> None:
    main, alt = accounts(stack)
    setup = {"players": [{"id": p.id, "deck": list(STARTER_DECK)} for p in (main, alt)]}
    ranked = stack.operator().post(
        f"{stack.url}/v1/admin/matches", json={"mode": "ranked", "setup": setup}, timeout=10
    )
    assert ranked.status_code == 422, ranked.text
    r = stack.operator().post(f"{stack.url}/v1/admin/matches", json={"setup": setup}, timeout=10)
    assert r.status_code == 201, r.text
    match_id = r.json()["match_id"]
    ended = concede_at(alt, main, match_id, 4)
    assert ended["mode"] == "admin" and ended["turns"] >= 4
    settled(stack, [match_id])
    assert coins_for_matches(main) == [] and main.get("/v1/ratings/me")["games"] == 0
    assert main.get("/v1/pass")["xp"] == 0
