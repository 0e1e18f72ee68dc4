"""The queue over HTTP: join, poll, cancel; bad input is a 4xx in the one error shape and writes
nothing; only a ticket's player sees or cancels it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from libs import clock
from services.matchmaking.service import MatchmakingService
from tests.integration.web.shape import assert_error

from .conftest import foreign_event


def test_join_poll_and_cancel(player: Callable, mm: MatchmakingService) -> None:
    ada = player()
    resp = ada.post("/v1/queue", {"mode": "ranked"})
    assert resp.status_code == 202, resp.get_json()
    ticket = resp.get_json()
    assert (ticket["status"], ticket["mode"], ticket["rating"], ticket["window"]) == (
        "waiting",
        "ranked",
        900,
        50,
    )
    clock.advance(4)
    got = ada.get(f"/v1/queue/{ticket['ticket_id']}").get_json()
    assert got["status"] == "waiting" and got["waited_seconds"] >= 4 and got["window"] >= 150
    gone = ada.delete(f"/v1/queue/{ticket['ticket_id']}")
    assert gone.status_code == 200 and gone.get_json()["status"] == "cancelled"
    assert gone.get_json()["reason"] == "player"
    assert_error(ada.delete(f"/v1/queue/{ticket['ticket_id']}"), 409, "ticket_not_waiting")


def test_a_pair_is_matched_then_shows_the_match(
    player: Callable, mm: MatchmakingService, deliver: Callable
) -> None:
    a, b = player(), player()
    ta = a.post("/v1/queue", {"mode": "casual"}).get_json()
    tb = b.post("/v1/queue", {"mode": "casual"}).get_json()
    mm.pair()
    assert a.get(f"/v1/queue/{ta['ticket_id']}").get_json()["status"] == "paired"
    assert_error(a.delete(f"/v1/queue/{ta['ticket_id']}"), 409, "ticket_not_waiting")
    (req,) = [e.data for e in mm.events.iter_all() if e.type == "MatchRequested"]
    created = {
        "match_id": req["match_id"],
        "mode": "casual",
        "players": [a.id, b.id],
        "bot": None,
        "request_id": req["request_id"],
    }
    deliver(foreign_event("MatchCreated", created))
    for p, t in ((a, ta), (b, tb)):
        view = p.get(f"/v1/queue/{t['ticket_id']}").get_json()
        assert (view["status"], view["match_id"]) == ("matched", req["match_id"])
    err = assert_error(a.delete(f"/v1/queue/{ta['ticket_id']}"), 409, "ticket_not_waiting")
    assert err["details"] == {"status": "matched"}


@pytest.mark.parametrize(
    "body",
    [{"mode": "practice"}, {"mode": "RANKED"}, {}, {"mode": "ranked", "extra": 1}, {"mode": 3}, [], "ranked"],
)
def test_bad_bodies_are_422_and_write_nothing(player: Callable, counts: Callable, body: object) -> None:
    before = counts()
    assert_error(player().post("/v1/queue", body), 422, "validation_error")
    assert counts() == before


def test_a_second_open_ticket_is_409_and_writes_nothing(player: Callable, counts: Callable) -> None:
    ada = player()
    first = ada.post("/v1/queue", {"mode": "ranked"}).get_json()
    before = counts()
    err = assert_error(ada.post("/v1/queue", {"mode": "casual"}), 409, "ticket_already_open")
    assert err["details"] == {"ticket_id": first["ticket_id"]}
    assert counts() == before


def test_an_illegal_active_deck_is_422_with_its_problems(
    player: Callable, counts: Callable, deliver: Callable
) -> None:
    ada = player()
    problems = ["a deck has exactly 20 cards", "at most 1 copy of a legendary (c99)"]
    deliver(
        foreign_event(
            "ActiveDeckChanged",
            {
                "player_id": ada.id,
                "deck_id": "d",
                "name": "n",
                "cards": ["c99", "c99"],
                "legal": False,
                "problems": problems,
            },
        )
    )
    before = counts()
    err = assert_error(ada.post("/v1/queue", {"mode": "ranked"}), 422, "illegal_deck")
    assert err["details"] == {"problems": problems}
    assert counts() == before


def test_someone_elses_ticket_is_404_and_untouched(player: Callable, counts: Callable) -> None:
    ada, eve = player(), player()
    ticket = ada.post("/v1/queue", {"mode": "ranked"}).get_json()["ticket_id"]
    before = counts()
    assert_error(eve.get(f"/v1/queue/{ticket}"), 404, "ticket_not_found")
    assert_error(eve.delete(f"/v1/queue/{ticket}"), 404, "ticket_not_found")
    assert_error(eve.get("/v1/queue/not-a-uuid"), 404, "ticket_not_found")
    assert counts() == before
    assert ada.get(f"/v1/queue/{ticket}").get_json()["status"] == "waiting"


def test_without_a_token_it_is_401(app: object) -> None:
    client = app.test_client()  # type: ignore[attr-defined]
    assert_error(client.post("/v1/queue", json={"mode": "ranked"}), 401, "unauthorized")


def test_a_retried_join_with_the_same_idempotency_key_returns_the_first_ticket(player: Callable) -> None:
    ada = player()
    first = ada.post("/v1/queue", {"mode": "ranked"}, headers={"Idempotency-Key": "k-1"})
    again = ada.post("/v1/queue", {"mode": "ranked"}, headers={"Idempotency-Key": "k-1"})
    assert first.status_code == again.status_code == 202
    assert first.get_json()["ticket_id"] == again.get_json()["ticket_id"]


def test_the_openapi_document_lists_the_queue(app: object) -> None:
    doc = app.test_client().get("/v1/openapi/matchmaking.json").get_json()  # type: ignore[attr-defined]
    assert {"/v1/queue", "/v1/queue/{ticket_id}"} <= set(doc["paths"])


def test_a_keyed_join_refused_as_already_open_needs_only_its_own_connection(
    postgres_url: str, mm_schema: str
) -> None:
    """Finding 4: the refusal was looked up on a second pooled connection while the keyed request
    held the first; with a pool of one that waited out the pool and failed with 503."""
    from psycopg_pool import ConnectionPool

    from libs.kit.web import service_app
    from tests.integration.conftest import settings_for_tests
    from tests.integration.matchmaking.conftest import SECRET, Player

    pool = ConnectionPool(postgres_url, min_size=1, max_size=1, timeout=2.0, open=False)
    pool.open(wait=True, timeout=30)
    try:
        app = service_app(
            "matchmaking", settings_for_tests(postgres_url, token_secret=SECRET), pool, schema=mm_schema
        )
        me = Player(app)
        first = me.post("/v1/queue", {"mode": "casual"}, headers={"Idempotency-Key": "one"})
        assert first.status_code == 202, first.get_json()
        again = me.post("/v1/queue", {"mode": "ranked"}, headers={"Idempotency-Key": "two"})
        assert again.status_code == 409, again.get_json()
        error = again.get_json()["error"]
        assert error["code"] == "ticket_already_open"
        assert error["details"]["ticket_id"] == first.get_json()["ticket_id"]
    finally:
        pool.close()


def test_join_and_cancel_cycles_are_limited_per_player(
    player: Callable, counts: Callable, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 17, finding 9: joins and cancels together, at most ARCANA_QUEUE_ACTIONS_PER_WINDOW a
    window per player; over it 429 with Retry-After and nothing written."""
    from libs import clock

    monkeypatch.setenv("ARCANA_QUEUE_ACTIONS_PER_WINDOW", "6")
    me, other = player(), player()
    for _ in range(3):
        ticket = me.post("/v1/queue", {"mode": "casual"}).get_json()["ticket_id"]
        assert me.delete(f"/v1/queue/{ticket}").status_code == 200
    before = counts()
    refused = me.post("/v1/queue", {"mode": "casual"})
    assert refused.status_code == 429, refused.get_json()
    assert refused.get_json()["error"]["code"] == "too_many_requests"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert counts() == before
    assert other.post("/v1/queue", {"mode": "casual"}).status_code == 202
    clock.advance(61)
    assert me.post("/v1/queue", {"mode": "casual"}).status_code == 202
