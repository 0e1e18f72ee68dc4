"""The line's collection and lines over HTTP (Flask test client, real PostgreSQL): the welcome set
claimed once, a legal line saved with its links and an illegal one refused with every problem (and
nothing written), activation publishing ``ActiveDeckChanged`` with game line in the outbox (the
events table the relay publishes), the Arcana deck untouched."""

from __future__ import annotations

import uuid
from typing import Any

from libs.games.line import WELCOME_LINE, WELCOME_SET
from services.economy.service import EconomyService


def test_the_welcome_set_is_claimed_once(client: Any, counts: Any) -> None:
    me = client()
    assert me.get("/v1/line/collection").get_json() == {"cards": [], "welcome_claimed": False}
    r = me.post("/v1/line/welcome")
    assert r.status_code == 201, r.get_json()
    claimed = r.get_json()
    assert claimed["welcome_claimed"] and sorted(c["card_id"] for c in claimed["cards"]) == sorted(
        WELCOME_SET
    )
    assert {c["card"]["kind"] for c in claimed["cards"]} == {"creep", "hero"}
    before = counts()
    again = me.post("/v1/line/welcome")
    assert again.status_code == 409 and again.get_json()["error"]["code"] == "welcome_already_claimed"
    assert counts() == before
    assert me.get("/v1/line/collection").get_json() == claimed


def test_a_legal_line_shows_its_links_and_an_illegal_one_names_every_problem(
    client: Any, counts: Any
) -> None:
    me = client()
    early = me.post("/v1/line/decks", {"name": "first", "cards": list(WELCOME_LINE)})
    assert (
        early.status_code == 422 and len(early.get_json()["error"]["details"]["problems"]) == 5
    )  # none owned
    me.post("/v1/line/welcome")
    before = counts()
    bad = me.post("/v1/line/decks", {"name": "bad", "cards": ["mud_brute", "mud_brute", "sun_herald"]})
    assert bad.status_code == 422
    error = bad.get_json()["error"]
    assert error["code"] == "invalid_line"
    assert error["details"]["problems"] == [
        "a line has exactly 5 cards, not 3",
        "mud_brute twice: the five are different cards",
        "sun_herald is not owned",
    ]
    assert counts() == before
    r = me.post("/v1/line/decks", {"name": "first", "cards": list(WELCOME_LINE)})
    assert r.status_code == 201, r.get_json()
    line = r.get_json()
    assert (line["cards"], line["legal"], line["problems"], line["active"]) == (
        list(WELCOME_LINE),
        True,
        [],
        False,
    )
    assert [link["id"] for link in line["links"]] == ["anchor", "classic", "control_net"]
    assert [s["card_id"] for s in line["stats"]] == list(WELCOME_LINE)
    assert me.get("/v1/line/decks").get_json()["decks"] == [line]


def test_activation_publishes_the_line_for_match_and_matchmaking(
    svc: EconomyService, client: Any, counts: Any
) -> None:
    me, other = client(), client()
    me.post("/v1/line/welcome")
    first = me.post("/v1/line/decks", {"name": "first", "cards": list(WELCOME_LINE)}).get_json()
    second = list(reversed(WELCOME_LINE))
    spare = me.post("/v1/line/decks", {"name": "second", "cards": second}).get_json()
    arcana_before = me.get("/v1/decks").get_json()

    assert other.post(f"/v1/line/decks/{first['deck_id']}/activate").status_code == 404  # not theirs
    r = me.post(f"/v1/line/decks/{first['deck_id']}/activate")
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["active"] is True

    published = [e for e in svc.events.read(f"line-{me.id}") if e.type == "ActiveDeckChanged"]
    assert [e.data for e in published] == [
        {
            "player_id": me.id,
            "deck_id": first["deck_id"],
            "name": "first",
            "cards": list(WELCOME_LINE),
            "legal": True,
            "problems": [],
            "game": "line",
        }
    ]
    assert me.get("/v1/decks").get_json() == arcana_before  # the Arcana deck stays active

    before = counts()
    deleted = me.delete(f"/v1/line/decks/{first['deck_id']}")
    assert deleted.status_code == 409 and deleted.get_json()["error"]["code"] == "active_deck"
    assert me.put(f"/v1/line/decks/{uuid.uuid4()}", {"name": "x", "cards": second}).status_code == 404
    assert counts() == before

    assert me.put(f"/v1/line/decks/{first['deck_id']}", {"name": "first", "cards": second}).status_code == 200
    last = [e for e in svc.events.read(f"line-{me.id}") if e.type == "ActiveDeckChanged"][-1]
    assert last.data["cards"] == second  # the active line edited: published again
    assert me.delete(f"/v1/line/decks/{spare['deck_id']}").status_code == 204
    assert [d["deck_id"] for d in me.get("/v1/line/decks").get_json()["decks"]] == [first["deck_id"]]


def test_autofill_proposes_the_best_five_of_the_collection_and_writes_nothing(
    client: Any, counts: Any
) -> None:
    from libs.games.line import autofill

    me = client()
    empty = me.post("/v1/line/decks/autofill")
    assert empty.status_code == 422 and empty.get_json()["error"]["code"] == "invalid_line"
    assert "the collection has 0" in empty.get_json()["error"]["details"]["problems"][0]
    me.post("/v1/line/welcome")
    before = counts()
    r = me.post("/v1/line/decks/autofill")
    assert r.status_code == 200, r.get_json()
    proposed = r.get_json()
    assert proposed["cards"] == list(autofill(WELCOME_SET))
    assert [link["id"] for link in proposed["links"]] == [
        "anchor",
        "classic",
        "control_net",
        "nuker_choir",
        "slippery",
    ]
    assert [s["card_id"] for s in proposed["stats"]] == proposed["cards"]
    assert me.post("/v1/line/decks/autofill").get_json() == proposed  # deterministic
    assert counts() == before and me.get("/v1/line/decks").get_json()["decks"] == []
    saved = me.post("/v1/line/decks", {"name": "auto", "cards": proposed["cards"]})
    assert saved.status_code == 201 and saved.get_json()["legal"]


def test_autofill_needs_a_player(app: Any) -> None:
    r = app.test_client().post("/v1/line/decks/autofill")
    assert r.status_code == 401 and r.get_json()["error"]["code"]
