"""Issue 34, point 5: an operator voids a ranked match's rating change, with a reason.

Each player's visible and hidden ratings move back by what the match moved (a compensating
``RatingChangeVoided``; the ``RatingChanged`` stays as stored), the win and the loss no longer count,
the history marks the match ``voided``, and ratings' ``audit`` stream holds an ``OperatorActed``
naming the operator and the reason. A second void is 409; a match that moved nothing 404; a player's
token 403; without a reason 422; none of them writes anything."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from psycopg_pool import ConnectionPool

from libs.eventstore import EventStore
from libs.kit.web import service_app
from tests.integration.conftest import row_counter, settings_for_tests
from tests.integration.ratings.conftest import SECRET, Player, ended
from tests.integration.web.shape import assert_error

OPERATOR = "ratings-operator-token-" + "v" * 20
AUTH = {"Authorization": f"Bearer {OPERATOR}"}


@pytest.fixture
def app(postgres_url: str, pool: ConnectionPool, ratings_schema: str) -> Any:
    settings = settings_for_tests(postgres_url, token_secret=SECRET, operator_tokens=f"vera={OPERATOR}")
    return service_app("ratings", settings, pool, schema=ratings_schema)


def _mine(p: Player) -> tuple[int, int, int]:
    me = p.get("/v1/ratings/me").get_json()
    return me["rating"], me["wins"], me["losses"]


def test_a_void_moves_both_ratings_back_and_is_audited(
    app: Any, deliver: Callable[..., None], pool: ConnectionPool, ratings_schema: str
) -> None:
    a, b = Player(app), Player(app)
    deliver("MatchEnded", ended(a.id, b.id))  # a first win: both on the ladder
    before = _mine(a), _mine(b)
    match = ended(a.id, b.id)
    deliver("MatchEnded", match)
    assert _mine(a)[0] > before[0][0] and _mine(b)[0] < before[1][0]

    http = app.test_client()
    body = {"match_id": match["match_id"], "reason": "win traded between alternates"}
    r = http.post("/v1/admin/rating-voids", json=body, headers=AUTH)
    assert r.status_code == 201, r.get_json()
    assert {p["player_id"]: p["after"] for p in r.get_json()["players"]} == {
        a.id: before[0][0],
        b.id: before[1][0],
    }
    assert (_mine(a), _mine(b)) == before
    history = a.get("/v1/ratings/me/history").get_json()["items"]
    assert (history[0]["match_id"], history[0]["reason"]) == (match["match_id"], "voided")

    stored = EventStore(pool, ratings_schema)
    assert [e.type for e in stored.read(f"rating-{a.id}")] == [
        "RatingChanged",
        "RatingChanged",
        "RatingChangeVoided",
    ]
    for p in (a, b):  # the hidden rating too: back where the voided match found it
        _, voided, void = (e.data for e in stored.read(f"rating-{p.id}"))
        assert (void["hidden_before"], void["hidden_after"]) == (
            voided["hidden_after"],
            voided["hidden_before"],
        )
    (entry,) = [e.data for e in stored.read("audit")]
    assert (entry["action"], entry["operator"], entry["reason"]) == (
        "void_rating",
        "vera",
        "win traded between alternates",
    )
    assert entry["subject"] == f"match-{match['match_id']}"
    assert {p["player_id"] for p in entry["details"]["players"]} == {a.id, b.id}

    assert_error(http.post("/v1/admin/rating-voids", json=body, headers=AUTH), 409, "already_voided")
    assert (_mine(a), _mine(b)) == before


def test_refused_voids_write_nothing(app: Any, pool: ConnectionPool, ratings_schema: str) -> None:
    count = row_counter(pool, ratings_schema, ("events", "ratings", "rating_history"))
    before, http = count(), app.test_client()
    unknown = {"match_id": str(uuid.uuid4()), "reason": "no such match"}
    assert_error(
        http.post("/v1/admin/rating-voids", json=unknown, headers=AUTH), 404, "rating_change_not_found"
    )
    no_reason = {"match_id": unknown["match_id"]}
    assert_error(http.post("/v1/admin/rating-voids", json=no_reason, headers=AUTH), 422, "validation_error")
    player = Player(app)
    mine = player.client.post(
        "/v1/admin/rating-voids", json=unknown, headers={"Authorization": f"Bearer {player.token}"}
    )
    assert_error(mine, 403, "forbidden")
    assert count() == before
