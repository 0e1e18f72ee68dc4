"""Bad input gets a 4xx in the one error shape and writes nothing (row counts unchanged)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from libs.games.arcana import STARTER_DECK
from services.economy.domain.values import CARDS_BY_RARITY
from tests.integration.economy.conftest import OPERATOR

LEGENDARY = CARDS_BY_RARITY["legendary"][0]
EPIC = CARDS_BY_RARITY["epic"][0]


def assert_refused(response: Any, status: int, code: str) -> None:
    body = response.get_json()
    assert response.status_code == status, body
    assert set(body) == {"error"} and body["error"]["code"] == code, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]


@pytest.fixture
def me(client) -> Any:  # type: ignore[no-untyped-def]
    return client()


# A deck id nobody has (fixed: every xdist worker must collect the same test ids).
NO_SUCH_DECK = "5f7e6c8d-335f-47e1-8fc3-aa1275f7c4a5"

CASES = [
    ("post", "/v1/crafts", {"card_id": "no_such_card"}, 422, "unknown_card"),
    ("post", "/v1/crafts", {"card_id": EPIC}, 409, "insufficient_dust"),
    ("post", "/v1/crafts", {"card_id": "wolf_pup"}, 409, "craft_beyond_limit"),
    ("post", "/v1/disenchants", {"card_id": EPIC}, 409, "card_not_owned"),
    ("post", "/v1/disenchants", {"card_id": "no_such_card"}, 422, "unknown_card"),
    ("post", "/v1/disenchants", {"card_id": 7}, 422, "validation_error"),
    ("post", "/v1/crafts", {"card_id": "wolf_pup", "extra": 1}, 422, "validation_error"),
    ("post", "/v1/decks", {"name": "x", "cards": [*STARTER_DECK, "squire"]}, 422, "invalid_deck"),
    ("post", "/v1/decks", {"name": "x", "cards": ["wolf_pup"] * 3}, 422, "invalid_deck"),
    ("post", "/v1/decks", {"name": "x", "cards": [LEGENDARY, LEGENDARY]}, 422, "invalid_deck"),
    ("post", "/v1/decks", {"name": "x", "cards": ["no_such_card"]}, 422, "invalid_deck"),
    ("post", "/v1/decks", {"name": "", "cards": []}, 422, "validation_error"),
    ("post", "/v1/decks", {"name": "x", "cards": "wolf_pup"}, 422, "validation_error"),
    ("post", "/v1/packs", {"client_seed": "not allowed!"}, 422, "validation_error"),
    ("get", "/v1/wallet/history?limit=abc", None, 422, "validation_error"),
    ("get", "/v1/wallet/history?limit=-1", None, 422, "validation_error"),
    ("get", "/v1/decks/not-a-uuid", None, 404, "deck_not_found"),
    ("get", f"/v1/decks/{NO_SUCH_DECK}", None, 404, "deck_not_found"),
    ("post", f"/v1/decks/{NO_SUCH_DECK}/activate", None, 404, "deck_not_found"),
]


@pytest.mark.parametrize(("method", "path", "body", "status", "code"), CASES)
def test_refused_and_nothing_written(me, counts, method, path, body, status, code) -> None:  # type: ignore[no-untyped-def]
    before = counts()
    response = me.get(path) if method == "get" else me.post(path, body)
    assert_refused(response, status, code)
    assert counts() == before


def test_insufficient_coins_is_named_and_writes_nothing(me, counts) -> None:  # type: ignore[no-untyped-def]
    for _ in range(4):
        assert me.post("/v1/packs").status_code == 201
    before = counts()
    assert_refused(me.post("/v1/packs"), 409, "insufficient_coins")
    assert counts() == before


def test_a_sixth_deck_is_refused(me, counts) -> None:  # type: ignore[no-untyped-def]
    for i in range(4):
        assert me.post("/v1/decks", {"name": f"d{i}", "cards": []}).status_code == 201
    before = counts()
    assert_refused(me.post("/v1/decks", {"name": "six", "cards": []}), 409, "deck_limit_reached")
    assert counts() == before


def test_activating_a_deck_with_cards_not_owned_names_every_problem(me, counts) -> None:  # type: ignore[no-untyped-def]
    deck_id = me.post("/v1/decks", {"name": "copy", "cards": list(STARTER_DECK)}).get_json()["deck_id"]
    other = next(c for c in STARTER_DECK if c != "wolf_pup" and STARTER_DECK.count(c) == 2)
    for card in ("wolf_pup", "wolf_pup", other):  # owned when saved, not any more
        assert me.post("/v1/disenchants", {"card_id": card}).status_code == 201
    before = counts()
    r = me.post(f"/v1/decks/{deck_id}/activate")
    assert_refused(r, 422, "illegal_deck")
    assert sorted(r.get_json()["error"]["details"]["problems"]) == sorted(
        ["2 copies of wolf_pup, 0 owned", f"2 copies of {other}, 1 owned"]
    )
    assert counts() == before


def test_saving_a_deck_with_cards_not_owned_is_refused_naming_each(me, counts) -> None:  # type: ignore[no-untyped-def]
    """Only cards you own: a deck (even incomplete) holding copies the player lacks is not saved."""
    cards = [*STARTER_DECK[:18], EPIC, LEGENDARY]
    (active,) = me.get("/v1/decks").get_json()["decks"]
    before = counts()
    for response in (
        me.post("/v1/decks", {"name": "dream", "cards": cards}),
        me.post("/v1/decks", {"name": "dream", "cards": [EPIC]}),
        me.put(f"/v1/decks/{active['deck_id']}", {"name": "dream", "cards": cards}),
    ):
        assert_refused(response, 422, "invalid_deck")
    assert sorted(response.get_json()["error"]["details"]["problems"]) == sorted(
        [f"1 copies of {EPIC}, 0 owned", f"1 copies of {LEGENDARY}, 0 owned"]
    )
    assert counts() == before
    assert me.get("/v1/decks").get_json()["decks"] == [active]


def test_another_players_deck_is_not_found(me, client, counts) -> None:  # type: ignore[no-untyped-def]
    other = client()
    (theirs,) = other.get("/v1/decks").get_json()["decks"]
    before = counts()
    for response in (
        me.get(f"/v1/decks/{theirs['deck_id']}"),
        me.put(f"/v1/decks/{theirs['deck_id']}", {"name": "mine", "cards": []}),
        me.delete(f"/v1/decks/{theirs['deck_id']}"),
        me.post(f"/v1/decks/{theirs['deck_id']}/activate"),
    ):
        assert_refused(response, 404, "deck_not_found")
    assert counts() == before


def test_the_active_deck_cannot_be_deleted(me, counts) -> None:  # type: ignore[no-untyped-def]
    (deck,) = me.get("/v1/decks").get_json()["decks"]
    before = counts()
    assert_refused(me.delete(f"/v1/decks/{deck['deck_id']}"), 409, "active_deck")
    assert counts() == before


@pytest.mark.parametrize(
    "change",
    [
        {"coins": "ten"},
        {"coins": -5},
        {"dust": 1.5},
        {"free_packs": True},
        {"reason": ""},
        {"player_id": "x"},
    ],
)
def test_bad_grants_are_refused(app, me, counts, change) -> None:  # type: ignore[no-untyped-def]
    body = {"player_id": me.id, "coins": 10, "reason": "support", **change}
    before = counts()
    r = app.test_client().post("/v1/admin/grants", json=body, headers={"Authorization": f"Bearer {OPERATOR}"})
    assert_refused(r, 422, "validation_error")
    assert counts() == before


def test_a_grant_of_nothing_is_refused(app, me, counts) -> None:  # type: ignore[no-untyped-def]
    before = counts()
    body = {"player_id": me.id, "reason": "support"}
    r = app.test_client().post("/v1/admin/grants", json=body, headers={"Authorization": f"Bearer {OPERATOR}"})
    assert_refused(r, 422, "invalid_amount")
    assert counts() == before


def test_without_a_token_nothing_is_seen(app) -> None:  # type: ignore[no-untyped-def]
    for path in ("/v1/wallet", "/v1/collection", "/v1/decks", "/v1/wallet/history"):
        assert_refused(app.test_client().get(path), 401, "unauthorized")


def test_a_grant_to_an_unknown_player_is_not_found(app, counts) -> None:  # type: ignore[no-untyped-def]
    before = counts()
    body = {"player_id": str(uuid.uuid4()), "coins": 5, "reason": "support"}
    r = app.test_client().post("/v1/admin/grants", json=body, headers={"Authorization": f"Bearer {OPERATOR}"})
    assert_refused(r, 404, "wallet_not_found")
    assert counts() == before


def test_a_grant_id_is_paid_once(app, me, counts) -> None:  # type: ignore[no-untyped-def]
    body = {"player_id": me.id, "coins": 5, "reason": "support", "grant_id": "ticket-77"}
    http, auth = app.test_client(), {"Authorization": f"Bearer {OPERATOR}"}
    assert http.post("/v1/admin/grants", json=body, headers=auth).status_code == 201
    before = counts()
    assert_refused(http.post("/v1/admin/grants", json=body, headers=auth), 409, "already_credited")
    assert counts() == before
    assert me.get("/v1/wallet").get_json()["coins"] == 405
