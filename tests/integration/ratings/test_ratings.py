"""Ratings on the real PostgreSQL: counted matches move both players once, the rest nothing; the
reads over HTTP (mine, public, history pages, leaderboard pages stable under ties)."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from psycopg import sql

from libs.contracts import MatchEnded, default_display_name
from libs.eventstore import ConcurrencyError
from services.ratings import domain
from services.ratings.service import RatingsService
from tests.integration.web.shape import assert_error

from .conftest import as_event, ended, start


def pid() -> str:
    return str(uuid.uuid4())


def test_a_ranked_win_moves_both_and_publishes_rating_changed(svc: RatingsService, deliver: Callable) -> None:
    a, b = pid(), pid()
    deliver("MatchEnded", ended(a, b))
    published = [e for e in svc.events.iter_all() if e.type == "RatingChanged"]
    assert {e.stream for e in published} == {f"rating-{a}", f"rating-{b}"}
    by_player = {e.data["player_id"]: e.data for e in published}
    assert (by_player[a]["before"], by_player[a]["after"], by_player[a]["result"]) == (900, 920, "win")
    assert (by_player[b]["after"], by_player[b]["delta"], by_player[b]["tier"]) == (880, -20, "bronze")
    assert svc.mine(a)["rating"] == 920 and svc.mine(b)["losses"] == 1


def test_the_same_match_again_changes_nothing(svc: RatingsService, deliver: Callable) -> None:
    a, b = pid(), pid()
    match = ended(a, b)
    deliver("MatchEnded", match)
    deliver("MatchEnded", match)  # republished under another event id: the streams know the match
    assert svc.mine(a)["games"] == 1 and svc.events.head_position() == 2


@pytest.mark.parametrize(
    "change",
    [{"mode": "casual"}, {"mode": "practice"}, {"mode": "admin"}, {"draw": True}, {"turns": 3}],
)
def test_uncounted_matches_change_nothing(svc: RatingsService, deliver: Callable, change: dict) -> None:
    a, b = pid(), pid()
    deliver("MatchEnded", ended(a, b, **change))
    ranked = change.get("mode", "ranked") == "ranked"
    # a ranked match that moves nothing is in the history with why (issue 17: the floors' feeder)
    assert [e.type for e in svc.events.iter_all()] == ["RatingUnchanged"] * 2 * ranked
    history = svc.history(a, 10, None).items
    assert [(h["delta"], h["reason"]) for h in history] == [
        (0, "draw" if change.get("draw") else "too_short")
    ] * ranked
    assert svc.mine(a) == {
        "player_id": a,
        "display_name": default_display_name(a),
        "rating": 900,
        "tier": "bronze",
        "highest_tier": "bronze",
        "games": 0,
        "wins": 0,
        "losses": 0,
    }


class _PausingAfterRead(RatingsService):
    """The real service, holding still between reading both players and appending (so a test can
    commit another match in between)."""

    def __init__(self, svc: RatingsService) -> None:
        super().__init__(svc.pool, svc.schema)
        self.read, self.go, self.loads = threading.Event(), threading.Event(), 0

    def load(self, player_id: str, conn: Any, game: str = "arcana") -> domain.PlayerRating:
        state = super().load(player_id, conn, game)
        self.loads += 1
        if self.loads == 2:
            self.read.set()
            self.go.wait(10)
        return state


def test_two_matches_of_one_player_at_once_count_both_after_a_retry(svc: RatingsService) -> None:
    a, b, c = pid(), pid(), pid()
    first, second = ended(a, b), ended(a, c)
    start(svc, first)
    start(svc, second)
    slow = _PausingAfterRead(svc)
    outcome: list[object] = []

    def other() -> None:
        try:
            with slow.pool.connection() as conn, conn.transaction():
                slow.record_match(MatchEnded.decode_data(second), conn)
            outcome.append("ok")
        except ConcurrencyError as exc:
            outcome.append(exc)

    thread = threading.Thread(target=other)
    thread.start()
    assert slow.read.wait(10)  # the other consumer has read a's stream at version 0
    with svc.pool.connection() as conn, conn.transaction():
        svc.record_match(MatchEnded.decode_data(first), conn)
    slow.go.set()
    thread.join(10)
    # Its append met the first match's: it was retried from a fresh read (both players loaded again).
    assert outcome == ["ok"] and slow.loads == 4
    history = [i["match_id"] for i in svc.history(a, 10, None).items]
    assert history == [second["match_id"], first["match_id"]]
    assert svc.mine(a)["games"] == 2


def test_the_read_model_rebuilds_to_the_same_rows(svc: RatingsService, deliver: Callable) -> None:
    from libs.bus import Projector
    from services.ratings.projections import projection

    a, b = pid(), pid()
    for _ in range(3):
        deliver("MatchEnded", ended(a, b))
    before = svc.mine(a), svc.history(a, 10, None).items
    Projector(svc.events, projection(svc.schema)).rebuild()
    assert (svc.mine(a), svc.history(a, 10, None).items) == before


def test_me_public_and_history_over_http(player: Callable, deliver: Callable) -> None:
    ada, bob = player(), player()
    deliver("PlayerRegistered", {"player_id": bob.id, "username": "bob"})
    for i in range(5):
        w, lo = (ada.id, bob.id) if i % 2 == 0 else (bob.id, ada.id)
        deliver("MatchEnded", ended(w, lo))
    me = ada.get("/v1/ratings/me").get_json()
    assert (me["games"], me["wins"], me["losses"]) == (5, 3, 2)
    public = ada.get(f"/v1/ratings/{bob.id}").get_json()
    assert public["games"] == 5 and "wins" not in public
    assert public["display_name"] == default_display_name(bob.id) and "username" not in public
    page1 = ada.get("/v1/ratings/me/history?limit=2").get_json()
    page2 = ada.get(f"/v1/ratings/me/history?limit=2&after={page1['next']}").get_json()
    page3 = ada.get(f"/v1/ratings/me/history?limit=2&after={page2['next']}").get_json()
    items = page1["items"] + page2["items"] + page3["items"]
    assert page3["next"] is None and len(items) == 5 and len({i["match_id"] for i in items}) == 5
    assert [i["result"] for i in items] == ["win", "loss", "win", "loss", "win"]  # newest first
    assert items[0]["after"] == me["rating"]


def test_bad_reads_are_4xx(player: Callable) -> None:
    ada = player()
    assert_error(ada.get(f"/v1/ratings/{uuid.uuid4()}"), 404, "player_not_found")
    assert_error(ada.get("/v1/ratings/not-a-player"), 404, "player_not_found")
    assert_error(ada.get("/v1/leaderboard?after=garbage"), 400, "invalid_cursor")
    assert_error(ada.get("/v1/ratings/me/history?after=%%%"), 400, "invalid_cursor")
    assert_error(ada.get("/v1/leaderboard?limit=0"), 422, "validation_error")
    assert_error(ada.get("/v1/leaderboard?limit=101"), 422, "validation_error")
    assert_error(ada.get("/v1/leaderboard?sort=rating"), 422, "validation_error")
    assert_error(ada.client.get("/v1/ratings/me"), 401, "unauthorized")


def test_leaderboard_pages_are_stable_under_ties(
    player: Callable, svc: RatingsService, deliver: Callable
) -> None:
    ada = player()
    ids = sorted(pid() for _ in range(9))
    for i, p in enumerate(ids):
        deliver("PlayerRegistered", {"player_id": p, "username": f"user{i}"})
    ratings = [1200, 1000, 1000, 1000, 950, 950, 900, 900, 900]
    with svc.pool.connection() as conn:  # the read model as many games would leave it
        for p, r in zip(ids, ratings, strict=True):
            conn.execute(
                sql.SQL("INSERT INTO {} VALUES (%s, %s, %s, %s, 1, 0, 1, now())").format(
                    sql.Identifier(svc.schema, "ratings")
                ),
                (p, r, domain.tier_for(r), domain.tier_for(r)),
            )
    seen, after = [], None
    while True:
        url = "/v1/leaderboard?limit=2" + (f"&after={after}" if after else "")
        page = ada.get(url).get_json()
        seen += page["items"]
        after = page["next"]
        if after is None:
            break
    assert [s["player_id"] for s in seen] == [
        p for _, p in sorted(zip(ratings, ids, strict=True), key=lambda x: (-x[0], x[1]))
    ]
    assert [s["rank"] for s in seen] == [1, 2, 2, 2, 5, 5, 7, 7, 7]
    assert all(s["display_name"] == default_display_name(s["player_id"]) for s in seen)
    assert not any("user" in str(s) for s in seen)  # no username on the leaderboard
    assert seen[0]["tier"] == "gold"


def test_a_redelivered_event_is_applied_once_by_the_inbox(svc: RatingsService) -> None:
    from libs.bus import ConsumerRunner
    from libs.kit.consume import handler_for
    from services.ratings.root import SERVICE

    (matches,) = [s for s in SERVICE.subscriptions if "MatchEnded" in s.handlers]
    runner = ConsumerRunner(
        svc.pool, svc.schema, matches.name, ["t"], handler_for(matches, svc), "127.0.0.1:1"
    )
    match = ended(pid(), pid())
    start(svc, match)
    event = as_event("MatchEnded", match)
    assert runner.apply(event) and not runner.apply(event)
    assert svc.events.head_position() == 2


def test_the_openapi_document_lists_the_reads(app: Any) -> None:
    doc = app.test_client().get("/v1/openapi/ratings.json").get_json()
    assert {"/v1/ratings/me", "/v1/ratings/me/history", "/v1/ratings/{player_id}", "/v1/leaderboard"} <= set(
        doc["paths"]
    )


def _with_verdict(data: dict[str, Any], **verdicts: dict[str, Any]) -> dict[str, Any]:
    return {**data, "verdict": verdicts}


def test_the_verdict_decides_whose_rating_moves_and_the_history_says_why(
    svc: RatingsService, deliver: Callable
) -> None:
    a, b = pid(), pid()
    nothing = {"coins": False, "xp": False, "rating": False}
    repeat = {**nothing, "reasons": dict.fromkeys(("coins", "xp", "rating"), "repeat_opponent")}
    deliver("MatchEnded", _with_verdict(ended(a, b), **{a: repeat, b: repeat}))
    assert svc.mine(a)["rating"] == svc.mine(b)["rating"] == 900
    (row,) = svc.history(a, 10, None).items
    assert (row["delta"], row["result"], row["reason"], row["message"]) == (
        0,
        "win",
        "repeat_opponent",
        "repeat opponent",
    )
    # an early concede: the leaver loses as usual, the winner keeps its rating
    early = ended(b, a, turns=1) | {"reason": "concede"}
    leaver = {**nothing, "rating": True, "reasons": dict.fromkeys(("coins", "xp"), "early_concede")}
    kept = {**nothing, "reasons": dict.fromkeys(("coins", "xp", "rating"), "early_concede")}
    deliver("MatchEnded", _with_verdict(early, **{a: leaver, b: kept}))
    assert (svc.mine(a)["rating"], svc.mine(a)["losses"]) == (880, 1)
    assert (svc.mine(b)["rating"], svc.mine(b)["games"]) == (900, 0)
    assert [h["reason"] for h in svc.history(b, 10, None).items] == ["early_concede", "repeat_opponent"]
    deliver("MatchEnded", _with_verdict(early, **{a: leaver, b: kept}))  # again: nothing more
    assert len(svc.history(b, 10, None).items) == 2 and svc.mine(a)["rating"] == 880


def test_others_see_the_chosen_display_name_never_the_username(player: Callable, deliver: Callable) -> None:
    """Issue 17, finding 11: the leaderboard and public ratings show the display name accounts
    published (the newest, by the accounts stream's version), never the log-in name."""
    ada, bob = player(), player()
    deliver("PlayerRegistered", {"player_id": bob.id, "username": "bob_login"}, 1)
    deliver("DisplayNameChanged", {"player_id": bob.id, "display_name": "Bobby Tables"}, 3)
    deliver("DisplayNameChanged", {"player_id": bob.id, "display_name": "Older Name"}, 2)  # late, older
    deliver("MatchEnded", ended(bob.id, ada.id))
    board = ada.get("/v1/leaderboard").get_json()["items"]
    public = ada.get(f"/v1/ratings/{bob.id}").get_json()
    shown = {i["player_id"]: i["display_name"] for i in board}
    assert shown == {bob.id: "Bobby Tables", ada.id: default_display_name(ada.id)}
    assert public["display_name"] == "Bobby Tables"
    assert "bob_login" not in str(board) + str(public)


def test_a_deleted_player_shows_as_the_pseudonym_with_the_rating_kept(
    player: Callable, deliver: Callable
) -> None:
    """Issue 34, point 6: once accounts publishes ``AccountDeleted``, ratings shows the pseudonym
    instead of the name the player chose, even if an older name is delivered again after it; the
    player's rating and record stay (the history is the game's, not the person's)."""
    ada, bob = player(), player()
    deliver("DisplayNameChanged", {"player_id": bob.id, "display_name": "Bobby Tables"}, 2)
    deliver("MatchEnded", ended(bob.id, ada.id))
    deleted = {"player_id": bob.id, "by": "player", "pseudonym": "deleted-0123456789ab"}
    deliver("AccountDeleted", deleted, 4)
    deliver("DisplayNameChanged", {"player_id": bob.id, "display_name": "Bobby Tables"}, 2)  # redelivered
    board = ada.get("/v1/leaderboard").get_json()["items"]
    public = ada.get(f"/v1/ratings/{bob.id}").get_json()
    assert {i["player_id"]: i["display_name"] for i in board}[bob.id] == "deleted-0123456789ab"
    assert public["display_name"] == "deleted-0123456789ab" and public["games"] == 1
    assert "Bobby" not in str(board) + str(public)
