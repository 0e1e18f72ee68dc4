"""The fourth game (``count``: tests/integration/match/count_game.py), hosted only because the setting
``ARCANA_GAMES`` names its module: economy pays its ended matches by the rewards table its offer
declares (30 coins a win, 10 a loss), through the consumer's handler, into the wallet the player reads;
no line of the service names it (tests/unit/games/test_offers.py)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from libs import clock
from libs.contracts import MatchEnded
from libs.eventstore import RecordedEvent
from services.economy.consumers import HANDLERS
from services.economy.service import EconomyService

GAME_MODULE = "tests.integration.match.count_game"
PAID = {"coins": True, "xp": True, "rating": False, "reasons": {"rating": "not_ranked"}}


@pytest.fixture(autouse=True)
def _count_hosted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARCANA_GAMES", GAME_MODULE)


def count_ended(game: str, winner: str, loser: str) -> RecordedEvent:
    """A casual MatchEnded of ``game`` as the consumer receives it, paying both players."""
    match_id = str(uuid.uuid4())
    data = {
        "match_id": match_id, "game": game, "mode": "casual", "players": [winner, loser], "winner": winner,
        "loser": loser, "draw": False, "turns": 5, "round": 1, "reason": "counted",
        "placements": [[winner], [loser]], "verdict": {winner: PAID, loser: PAID},
    }  # fmt: skip
    return RecordedEvent(
        uuid.uuid4(), f"match-{match_id}", 9, 1, MatchEnded.TYPE, 1, clock.now(), None, None, data
    )


def _deliver(svc: EconomyService, event: RecordedEvent) -> None:
    with svc.pool.connection() as conn, conn.transaction():
        HANDLERS[MatchEnded.TYPE](svc, event, conn)


def test_a_count_match_pays_the_rewards_table_of_its_offer(svc: EconomyService, client: Any) -> None:
    winner, loser = client(), client()
    before = {c.id: c.get("/v1/wallet").get_json()["coins"] for c in (winner, loser)}
    ended = count_ended("count", winner.id, loser.id)
    _deliver(svc, ended)
    _deliver(svc, ended)  # a redelivery pays nothing more
    after = {c.id: c.get("/v1/wallet").get_json()["coins"] for c in (winner, loser)}
    assert (after[winner.id] - before[winner.id], after[loser.id] - before[loser.id]) == (30, 10)
    _deliver(svc, count_ended("counting", winner.id, loser.id))  # a game not hosted: pays nothing
    assert winner.get("/v1/wallet").get_json()["coins"] == after[winner.id]
