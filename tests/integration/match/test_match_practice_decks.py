"""Practice uses the player's active deck as economy last published it (ActiveDeckChanged on
arcana.economy.events, applied by match's consumer handler): the starter deck before any, the
published deck when legal, a 422 with its problems when not."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from libs.eventstore import RecordedEvent
from libs.games.arcana import STARTER_DECK
from libs.kit import definition
from libs.kit.consume import handler_for
from services.match.service import MatchService

OTHER_DECK = [*STARTER_DECK[:18], "quick_study", "quick_study"]


def deliver(
    svc: MatchService, version: int, player: str, cards: list[str], legal: bool, problems: list[str]
) -> None:
    """Apply one ActiveDeckChanged exactly as match's consumer does (its subscription's handler)."""
    (sub,) = [s for s in definition("match").subscriptions if "ActiveDeckChanged" in s.handlers]
    data = {
        "player_id": player,
        "deck_id": "d",
        "name": "n",
        "cards": cards,
        "legal": legal,
        "problems": problems,
    }
    event = RecordedEvent(
        uuid.uuid4(),
        f"decks-{player}",
        version,
        version,
        "ActiveDeckChanged",
        1,
        datetime.now(UTC),
        None,
        None,
        data,
    )
    with svc.pool.connection() as conn, conn.transaction():
        handler_for(sub, svc)(event, conn)


def practice_deck(svc: MatchService, match_id: str, player: str) -> list[str]:
    started = next(e for e in svc.matches.read_events(match_id) if e.type == "MatchStarted")
    return next(sorted(p["deck"]) for p in started.data["players"] if p["id"] == player)


def test_the_starter_deck_before_economy_published_one(make_player: Any, svc: MatchService) -> None:
    alice = make_player()
    r = alice.post("/v1/practice")
    assert r.status_code == 201, r.get_json()
    assert practice_deck(svc, r.get_json()["match_id"], alice.id) == sorted(STARTER_DECK)


def test_the_published_active_deck_is_used_and_an_older_event_never_replaces_it(
    make_player: Any, svc: MatchService
) -> None:
    alice = make_player()
    deliver(svc, 3, alice.id, OTHER_DECK, True, [])
    deliver(svc, 2, alice.id, list(STARTER_DECK), True, [])  # older, redelivered late: ignored
    r = alice.post("/v1/practice")
    assert r.status_code == 201, r.get_json()
    assert practice_deck(svc, r.get_json()["match_id"], alice.id) == sorted(OTHER_DECK)


def test_an_illegal_active_deck_is_refused_with_its_problems(
    make_player: Any, svc: MatchService, counts: Any
) -> None:
    alice = make_player()
    deliver(svc, 4, alice.id, list(STARTER_DECK), False, ["2 copies of wolf_pup, 1 owned"])
    before = counts()
    r = alice.post("/v1/practice")
    assert r.status_code == 422
    assert r.get_json()["error"]["code"] == "invalid_deck"
    assert r.get_json()["error"]["details"] == {"problems": ["2 copies of wolf_pup, 1 owned"]}
    assert counts() == before
    deliver(svc, 5, alice.id, list(STARTER_DECK), True, [])  # legal again (a card crafted back)
    assert alice.post("/v1/practice").status_code == 201
