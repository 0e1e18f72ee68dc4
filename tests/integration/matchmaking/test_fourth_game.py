"""The fourth game (``count``: tests/integration/match/count_game.py), hosted only because the setting
``ARCANA_GAMES`` names its module: matchmaking queues it as its offer says (ranked and casual, tables
of two, no deck), pairs it by its own ladder's rating (its ``RatingChanged``, not Arcana's) and
requests its match; no line of the service names it (tests/unit/games/test_offers.py)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest

from libs.contracts import RatingChanged
from services.matchmaking.service import MatchmakingService
from tests.integration.web.shape import assert_error

from .conftest import Player, foreign_event, requested

GAME_MODULE = "tests.integration.match.count_game"


@pytest.fixture(autouse=True)
def _count_hosted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARCANA_GAMES", GAME_MODULE)


def join(p: Player, body: dict[str, Any]) -> dict[str, Any]:
    resp = p.post("/v1/queue", body)
    assert resp.status_code == 202, resp.get_json()
    return dict(resp.get_json())


def test_the_fourth_game_is_queued_by_its_offer_paired_on_its_ladder_and_its_match_requested(
    mm: MatchmakingService, player: Callable[[], Player], deliver: Callable
) -> None:
    ada, bob = player(), player()
    changed = RatingChanged(
        ada.id, str(uuid.uuid4()), 900, 930, "bronze", "bronze", 30, "win",
        hidden_before=900, hidden_after=1040, game="count",
    )  # fmt: skip
    deliver(foreign_event("RatingChanged", changed.data(), version=1))

    ranked = join(
        ada, {"mode": "ranked", "game": "count"}
    )  # no deck: its offer needs none; its hidden rating
    assert (ranked["game"], ranked["sizes"], ranked["rating"]) == ("count", [2], 1040)
    assert ada.delete(f"/v1/queue/{ranked['ticket_id']}").status_code == 200
    arcana = join(ada, {"mode": "ranked", "game": "arcana"})
    assert arcana["rating"] == 900  # Arcana's ladder: untouched
    assert ada.delete(f"/v1/queue/{arcana['ticket_id']}").status_code == 200
    assert_error(
        bob.post("/v1/queue", {"mode": "casual", "game": "count", "sizes": [2]}), 422, "invalid_sizes"
    )

    mine = join(bob, {"mode": "casual", "game": "count"})
    assert mine["rating"] == 900  # its ladder's start (Elo)
    assert mm.pair().ran and requested(mm) == []  # alone in its queue: nobody to pair
    other = player()
    join(other, {"mode": "casual", "game": "count"})
    mm.pair()
    (request,) = requested(mm)
    assert request["game"] == "count" and request["mode"] == "casual"
    assert {p["id"] for p in request["players"]} == {bob.id, other.id}
    assert bob.get(f"/v1/queue/{mine['ticket_id']}").get_json()["status"] == "paired"
