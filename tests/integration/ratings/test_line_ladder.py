"""The line's MMR ladder on the real PostgreSQL, over HTTP: a ranked line MatchEnded moves MMR +2 / -1
once however often it is delivered, on streams and tables of its own (Arcana's rating untouched);
``?game=line`` reads it; an unknown game is 422 and writes nothing."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from libs.contracts import default_display_name
from services.ratings.service import RatingsService
from tests.integration.web.shape import assert_error

from .conftest import ended

RATED = {"coins": True, "xp": False, "rating": True, "reasons": {"xp": "mode"}}


def line_ended(winner: str, loser: str, *, mode: str = "ranked", rated: bool = True) -> dict[str, Any]:
    """A line MatchEnded as the match service publishes it (no turns: the fight is resolved at once)."""
    verdict = RATED if rated else {**RATED, "rating": False, "reasons": {"rating": "repeat_opponent"}}
    return ended(winner, loser, mode=mode, turns=0) | {
        "game": "line",
        "reason": "line_fallen",
        "placements": [[winner], [loser]],
        "verdict": {winner: verdict, loser: verdict},
    }


def test_a_ranked_line_match_delivered_twice_moves_mmr_once_and_not_arcanas_rating(
    svc: RatingsService, deliver: Callable, player: Callable
) -> None:
    ada, bob = player(), player()
    match = line_ended(ada.id, bob.id)
    deliver("MatchEnded", match)
    deliver("MatchEnded", match)  # the same match again (another event id): the streams know it
    published = [e for e in svc.events.iter_all() if e.type == "RatingChanged"]
    assert {e.stream for e in published} == {f"line-rating-{ada.id}", f"line-rating-{bob.id}"}
    assert {(e.data["player_id"], e.data["after"], e.data["delta"], e.data["game"]) for e in published} == {
        (ada.id, 1002, 2, "line"),
        (bob.id, 999, -1, "line"),
    }
    mine = ada.get("/v1/ratings/me?game=line").get_json()
    assert (mine["rating"], mine["tier"], mine["games"], mine["wins"]) == (1002, "none", 1, 1)
    assert bob.get("/v1/ratings/me?game=line").get_json()["rating"] == 999
    arcana = ada.get("/v1/ratings/me").get_json()  # the default ladder: Arcana's, untouched
    assert (arcana["rating"], arcana["tier"], arcana["games"]) == (900, "bronze", 0)
    assert ada.get("/v1/ratings/me?game=arcana").get_json() == arcana
    assert ada.get("/v1/ratings/me/history").get_json()["items"] == []
    assert ada.get("/v1/leaderboard").get_json()["items"] == []


def test_line_history_and_leaderboard_show_display_names(
    svc: RatingsService, deliver: Callable, player: Callable
) -> None:
    ada, bob = player(), player()
    deliver("DisplayNameChanged", {"player_id": bob.id, "display_name": "Bob of the Line"}, 2)
    for _ in range(2):
        deliver("MatchEnded", line_ended(bob.id, ada.id))
    deliver("MatchEnded", line_ended(ada.id, bob.id, rated=False))  # a repeat: history says why
    history = ada.get("/v1/ratings/me/history?game=line").get_json()["items"]
    assert [(h["result"], h["before"], h["after"], h["delta"], h["reason"]) for h in history] == [
        ("win", 998, 998, 0, "repeat_opponent"),
        ("loss", 999, 998, -1, None),
        ("loss", 1000, 999, -1, None),
    ]
    board = ada.get("/v1/leaderboard?game=line").get_json()["items"]
    assert [(i["rank"], i["player_id"], i["display_name"], i["rating"]) for i in board] == [
        (1, bob.id, "Bob of the Line", 1004),
        (2, ada.id, default_display_name(ada.id), 998),
    ]
    public = ada.get(f"/v1/ratings/{bob.id}?game=line").get_json()
    assert (public["rating"], public["games"], public["display_name"]) == (1004, 2, "Bob of the Line")


def test_a_casual_line_match_and_an_arena_match_move_no_ladder(
    svc: RatingsService, deliver: Callable
) -> None:
    a, b, c = (str(uuid.uuid4()) for _ in range(3))
    deliver("MatchEnded", line_ended(a, b, mode="casual"))
    arena = ended(a, b, mode="casual", turns=9) | {"game": "arena", "players": [a, b, c], "loser": None}
    deliver("MatchEnded", arena | {"placements": [[a], [b], [c]]})
    assert list(svc.events.iter_all()) == []


def test_an_unknown_game_is_422_and_writes_nothing(svc: RatingsService, player: Callable) -> None:
    ada = player()
    for path in ("/v1/ratings/me", "/v1/ratings/me/history", "/v1/leaderboard", f"/v1/ratings/{ada.id}"):
        assert_error(ada.get(f"{path}?game=chess"), 422, "validation_error")
        assert_error(ada.get(f"{path}?game=arena"), 422, "validation_error")  # the arena has no ladder
    assert svc.events.head_position() == 0


def test_the_line_tables_rebuild_to_the_same_rows(svc: RatingsService, deliver: Callable) -> None:
    from libs.bus import Projector
    from services.ratings.projections import projection

    a, b = str(uuid.uuid4()), str(uuid.uuid4())
    deliver("MatchEnded", line_ended(a, b))
    deliver("MatchEnded", ended(b, a))
    before = [(svc.mine(p, g), svc.history(p, 10, None, g).items) for p in (a, b) for g in ("arcana", "line")]
    Projector(svc.events, projection(svc.schema)).rebuild()
    after = [(svc.mine(p, g), svc.history(p, 10, None, g).items) for p in (a, b) for g in ("arcana", "line")]
    assert after == before and svc.mine(a, "line")["rating"] == 1002 and svc.mine(a)["rating"] == 880
