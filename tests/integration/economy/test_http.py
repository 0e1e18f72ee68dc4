"""The economy API over HTTP (Flask test client, real PostgreSQL): wallet, ledger, packs with
their proofs, crafting, decks, operator grants, and concurrent openings."""

from __future__ import annotations

import hashlib
import threading
from typing import Any

from libs.games.arcana import STARTER_DECK
from services.economy.domain.packs import open_pack
from tests.integration.economy.conftest import OPERATOR


def test_a_new_player_sees_400_coins_the_collection_and_an_active_legal_deck(client) -> None:
    me = client()
    wallet = me.get("/v1/wallet").get_json()
    assert (wallet["coins"], wallet["dust"], wallet["free_packs"], wallet["pity_counter"]) == (400, 0, 0, 0)
    assert len(wallet["next_pack"]["commitment"]) == 64
    cards = {c["card_id"]: c for c in me.get("/v1/collection").get_json()["cards"]}
    assert cards["wolf_pup"]["copies"] == 2 and cards["wolf_pup"]["card"]["rarity"] == "common"
    (deck,) = me.get("/v1/decks").get_json()["decks"]
    assert deck["active"] and deck["legal"] and deck["cards"] == list(STARTER_DECK)


def test_an_opening_reveals_the_committed_seed_and_the_cards_rederive(client) -> None:
    me = client()
    shown = me.get("/v1/wallet").get_json()["next_pack"]
    r = me.post("/v1/packs", {"client_seed": "lucky-7"})
    assert r.status_code == 201, r.get_json()
    pack = r.get_json()
    assert (
        hashlib.sha256(pack["server_seed"].encode()).hexdigest() == shown["commitment"] == pack["commitment"]
    )
    assert pack["pack_number"] == shown["pack_number"] == 1
    derived = open_pack(pack["server_seed"], "lucky-7", 1, pack["pity_before"])
    assert [c["card_id"] for c in pack["cards"]] == derived
    after = me.get("/v1/wallet").get_json()
    assert after["next_pack"]["commitment"] == pack["next_commitment"] and after["coins"] == 300
    history = me.get("/v1/wallet/history").get_json()["entries"]
    assert (history[0]["reason"], history[0]["amount"], history[0]["source"]) == ("pack", -100, "pack:1")


def test_fifty_concurrent_openings_on_100_coins_open_one_pack(client) -> None:
    me = client()
    for _ in range(3):
        assert me.post("/v1/packs").status_code == 201
    statuses: list[int] = []
    barrier = threading.Barrier(50)

    def one(c: Any) -> None:
        barrier.wait()
        statuses.append(c.post("/v1/packs").status_code)

    threads = [threading.Thread(target=one, args=(me.twin(),)) for _ in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(set(statuses)) == [201, 409] and statuses.count(201) == 1
    wallet = me.get("/v1/wallet").get_json()
    assert wallet["coins"] == 0 and wallet["packs_opened"] == 4
    entries = me.get("/v1/wallet/history?limit=500").get_json()["entries"]
    for currency in ("coins", "dust"):
        assert sum(e["amount"] for e in entries if e["currency"] == currency) == wallet[currency]
        assert all(e["balance_after"] >= 0 for e in entries)


def test_history_pages_newest_first(client) -> None:
    me = client()
    for _ in range(3):
        me.post("/v1/packs")
    first = me.get("/v1/wallet/history?limit=2").get_json()
    rest = me.get(f"/v1/wallet/history?limit=50&before={first['next_before']}").get_json()
    positions = [e["position"] for e in first["entries"] + rest["entries"]]
    assert positions == sorted(positions, reverse=True) and rest["next_before"] is None
    assert [e["source"] for e in rest["entries"]][-1] == "starter:" + me.id


def test_craft_and_disenchant_move_dust_and_copies(client) -> None:
    me = client()
    r = me.post("/v1/disenchants", {"card_id": "wolf_pup"})
    assert r.status_code == 201 and r.get_json() == {
        "card_id": "wolf_pup",
        "rarity": "common",
        "dust_change": 5,
        "dust": 5,
        "copies": 1,
    }
    (deck,) = me.get("/v1/decks").get_json()["decks"]
    assert not deck["legal"] and deck["problems"] == ["2 copies of wolf_pup, 1 owned"]


def test_decks_create_edit_activate_delete(client) -> None:
    me = client()
    r = me.post("/v1/decks", {"name": "aggro", "cards": ["wolf_pup"]})
    assert r.status_code == 201 and not r.get_json()["legal"]
    deck_id = r.get_json()["deck_id"]
    assert me.put(f"/v1/decks/{deck_id}", {"name": "aggro", "cards": list(STARTER_DECK)}).status_code == 200
    r = me.post(f"/v1/decks/{deck_id}/activate")
    assert r.status_code == 200 and r.get_json()["active"] and r.get_json()["legal"]
    starter = next(d for d in me.get("/v1/decks").get_json()["decks"] if d["deck_id"] != deck_id)
    assert me.delete(f"/v1/decks/{starter['deck_id']}").status_code == 204
    assert [d["deck_id"] for d in me.get("/v1/decks").get_json()["decks"]] == [deck_id]


def test_operator_grants_are_credited_and_recorded_with_their_reason(client, app) -> None:
    me = client()
    body = {"player_id": me.id, "coins": 100, "dust": 1600, "free_packs": 1, "reason": "ticket 42"}
    http = app.test_client()
    assert http.post("/v1/admin/grants", json=body).status_code == 401  # no credentials: a challenge
    assert me.post("/v1/admin/grants", body).status_code == 403  # a player's token is not the operator's
    r = http.post("/v1/admin/grants", json=body, headers={"Authorization": f"Bearer {OPERATOR}"})
    assert r.status_code == 201 and (r.get_json()["coins"], r.get_json()["dust"]) == (500, 1600)
    entries = me.get("/v1/wallet/history").get_json()["entries"]
    assert {(e["currency"], e["amount"], e["reason"]) for e in entries[:3]} == {
        ("coins", 100, "grant"),
        ("dust", 1600, "grant"),
        ("free_packs", 1, "grant"),
    }
    pack = me.post("/v1/packs").get_json()
    assert pack["paid_with"] == "free_pack" and pack["coins"] == 500


def test_a_retried_opening_with_the_same_idempotency_key_returns_the_first_pack(client) -> None:
    me = client()
    headers = {**me.headers, "Idempotency-Key": "open-once"}
    first = me.http.post("/v1/packs", json={}, headers=headers)
    again = me.http.post("/v1/packs", json={}, headers=headers)
    assert first.status_code == again.status_code == 201
    assert first.get_json() == again.get_json()
    assert me.get("/v1/wallet").get_json()["coins"] == 300


def test_history_pages_never_split_an_event_moving_several_currencies(client, app) -> None:
    me = client()
    grant = {"player_id": me.id, "coins": 10, "dust": 20, "free_packs": 1, "reason": "support"}
    auth = {"Authorization": f"Bearer {OPERATOR}"}
    assert app.test_client().post("/v1/admin/grants", json=grant, headers=auth).status_code == 201
    me.post("/v1/packs")
    pages, before = [], ""
    while True:
        page = me.get(f"/v1/wallet/history?limit=1{before}").get_json()
        pages.append(page["entries"])
        if page["next_before"] is None:
            break
        before = f"&before={page['next_before']}"
    assert [len(p) for p in pages[1:]] == [3, 1]  # the grant's three currencies, then the starter
    everything = me.get("/v1/wallet/history?limit=500").get_json()["entries"]
    assert [e for p in pages for e in p] == everything
