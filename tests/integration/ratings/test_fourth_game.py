"""The fourth game (``count``: tests/integration/match/count_game.py), hosted only because the setting
``ARCANA_GAMES`` names its module: ratings rates its ranked matches on the ladder its offer declares
(Elo, stream ``count-rating-<player>``), reads it with ``?game=count``, and leaves Arcana's alone; no
line of the service names it (tests/unit/games/test_offers.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from services.ratings.service import RatingsService
from tests.integration.web.shape import assert_error

from .conftest import ended

GAME_MODULE = "tests.integration.match.count_game"
RATED = {"coins": True, "xp": True, "rating": True, "reasons": {}}


@pytest.fixture(autouse=True)
def _count_hosted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARCANA_GAMES", GAME_MODULE)


def count_ended(winner: str, loser: str, **kw: Any) -> dict[str, Any]:
    """A ranked count MatchEnded as the match service publishes it (turns passed by timeouts too)."""
    return ended(winner, loser, turns=5, **kw) | {
        "game": "count",
        "reason": "counted",
        "placements": [[winner], [loser]],
        "verdict": {winner: RATED, loser: RATED},
    }


def test_a_ranked_count_match_moves_the_ladder_its_offer_declares_and_not_arcanas(
    svc: RatingsService, deliver: Callable, player: Callable
) -> None:
    ada, bob = player(), player()
    deliver("MatchEnded", count_ended(ada.id, bob.id))
    published = [e for e in svc.events.iter_all() if e.type == "RatingChanged"]
    assert {e.stream for e in published} == {f"count-rating-{ada.id}", f"count-rating-{bob.id}"}
    assert {(e.data["player_id"], e.data["before"], e.data["after"], e.data["game"]) for e in published} == {
        (ada.id, 900, 920, "count"),  # Elo from 900, K 40, equal ratings: +20 / -20
        (bob.id, 900, 880, "count"),
    }
    mine = ada.get("/v1/ratings/me?game=count").get_json()
    assert (mine["rating"], mine["tier"], mine["games"], mine["wins"]) == (920, "bronze", 1, 1)
    history = bob.get("/v1/ratings/me/history?game=count").get_json()["items"]
    assert [(h["result"], h["before"], h["after"]) for h in history] == [("loss", 900, 880)]
    board = ada.get("/v1/leaderboard?game=count").get_json()["items"]
    assert [(i["rank"], i["player_id"], i["rating"]) for i in board] == [(1, ada.id, 920), (2, bob.id, 880)]
    arcana = ada.get("/v1/ratings/me").get_json()  # the default ladder, untouched
    assert (arcana["rating"], arcana["games"]) == (900, 0)
    assert ada.get("/v1/leaderboard").get_json()["items"] == []


def test_a_casual_count_match_moves_nothing_and_a_game_not_hosted_is_422(
    svc: RatingsService, deliver: Callable, player: Callable
) -> None:
    ada, bob = player(), player()
    deliver("MatchEnded", count_ended(ada.id, bob.id, mode="casual"))
    assert [e for e in svc.events.iter_all() if e.type == "RatingChanged"] == []
    assert_error(ada.get("/v1/ratings/me?game=counting"), 422, "validation_error")
