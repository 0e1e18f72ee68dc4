"""A MatchRequested is checked against what match knows (issue 12, finding 3): both players were
registered by accounts (PlayerRegistered), and each deck is the player's active deck as economy last
published it (ActiveDeckChanged), the starter deck before any. Every event goes through match's own
consumer handlers; a request that fails is rejected with MatchRequestRejected."""

from __future__ import annotations

import uuid
from typing import Any

from libs.contracts import match_id_for
from libs.games.arcana import STARTER_DECK
from services.match.service import MatchService
from tests.integration.match.conftest import deliver, registered

OTHER_DECK = [*STARTER_DECK[:18], "quick_study", "quick_study"]


def _request(svc: MatchService, mode: str, *players: tuple[str, list[str]]) -> list[Any]:
    """Deliver a MatchRequested to match's consumer; the events of the stream it made."""
    request_id = f"req-{uuid.uuid4()}"
    data = {"request_id": request_id, "mode": mode, "players": [{"id": i, "deck": d} for i, d in players]}
    deliver(svc, "MatchRequested", data, f"pairing-{request_id}")
    return svc.matches.read_events(match_id_for(request_id))


def _active_deck(svc: MatchService, player: str, cards: list[str], version: int) -> None:
    data = {"player_id": player, "deck_id": "d", "name": "n", "cards": cards, "legal": True, "problems": []}
    deliver(svc, "ActiveDeckChanged", data, f"decks-{player}", version)


def _rejection(events: list[Any]) -> dict[str, Any]:
    assert [e.type for e in events] == ["MatchRequestRejected"], [e.type for e in events]
    return dict(events[0].data)


def test_a_request_between_registered_players_with_their_active_decks_starts(svc: MatchService) -> None:
    alice, bob = str(uuid.uuid4()), str(uuid.uuid4())
    registered(svc, alice, bob)
    _active_deck(svc, bob, OTHER_DECK, 1)
    shuffled = list(reversed(OTHER_DECK))  # the same cards in another order
    events = _request(svc, "ranked", (alice, list(STARTER_DECK)), (bob, shuffled))
    assert [e.type for e in events[:2]] == ["MatchCreated", "MatchStarted"]


def test_a_request_naming_a_player_accounts_never_registered_is_rejected(svc: MatchService) -> None:
    alice, stranger = str(uuid.uuid4()), str(uuid.uuid4())
    registered(svc, alice)
    rejected = _rejection(
        _request(svc, "ranked", (alice, list(STARTER_DECK)), (stranger, list(STARTER_DECK)))
    )
    assert rejected["reason"] == "unknown_player" and set(rejected["problems"]) == {stranger}
    both = _rejection(
        _request(svc, "casual", (str(uuid.uuid4()), list(STARTER_DECK)), (stranger, list(STARTER_DECK)))
    )
    assert both["reason"] == "unknown_player" and len(both["problems"]) == 2


def test_a_deck_other_than_the_active_one_is_rejected(svc: MatchService) -> None:
    alice, bob = str(uuid.uuid4()), str(uuid.uuid4())
    registered(svc, alice, bob)
    # before economy published anything, the starter deck is the active deck
    rejected = _rejection(_request(svc, "ranked", (alice, OTHER_DECK), (bob, list(STARTER_DECK))))
    assert rejected["reason"] == "deck_mismatch" and set(rejected["problems"]) == {alice}
    # once economy published bob's, the starter deck is no longer his
    _active_deck(svc, bob, OTHER_DECK, 1)
    rejected = _rejection(_request(svc, "casual", (alice, list(STARTER_DECK)), (bob, list(STARTER_DECK))))
    assert rejected["reason"] == "deck_mismatch" and set(rejected["problems"]) == {bob}
    # the last one economy published counts; an older one redelivered changes nothing
    _active_deck(svc, bob, list(STARTER_DECK), 2)
    _active_deck(svc, bob, OTHER_DECK, 1)
    started = _request(svc, "ranked", (alice, list(STARTER_DECK)), (bob, list(STARTER_DECK)))
    assert started[0].type == "MatchCreated"


def test_a_request_of_ids_only_plays_each_players_active_deck(svc: MatchService) -> None:
    """Issue 17, finding 5: MatchRequested carries no deck lists; match plays the decks economy
    published (the starter deck before any)."""
    alice, bob = str(uuid.uuid4()), str(uuid.uuid4())
    registered(svc, alice, bob)
    _active_deck(svc, bob, OTHER_DECK, 1)
    request_id = f"req-{uuid.uuid4()}"
    data = {"request_id": request_id, "mode": "ranked", "players": [{"id": alice}, {"id": bob}]}
    deliver(svc, "MatchRequested", data, f"pairing-{request_id}")
    events = svc.matches.read_events(match_id_for(request_id))
    assert [e.type for e in events[:2]] == ["MatchCreated", "MatchStarted"]
    decks = {p["id"]: sorted(p["deck"]) for p in events[1].data["players"]}
    assert decks == {alice: sorted(STARTER_DECK), bob: sorted(OTHER_DECK)}
