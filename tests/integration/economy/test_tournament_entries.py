"""The line's tournament at the economy (docs/line.md, "Tournament"), Flask test client and real
PostgreSQL: an entry is ten different line cards the player owns, one open at a time, three a UTC
day; refusals are 4xx in the one error shape and write nothing; the entry goes in full to the match
service's topic only; a place award is paid once however often it is delivered (also under another
event id), only when it pays what the prize table says, and it closes the entry."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, time
from typing import Any

import pytest

from libs import clock
from libs.contracts import Unacceptable
from libs.eventstore import RecordedEvent
from libs.games.line import WELCOME_SET
from libs.kit import definition
from libs.kit.consume import handler_for
from services.economy.publication import route
from services.economy.service import EconomyService

TEN = sorted(WELCOME_SET)[:10]
ENTRIES = "/v1/line/tournament/entries"


def refused(r: Any, status: int, code: str) -> dict[str, Any]:
    body = r.get_json()
    assert r.status_code == status and set(body) == {"error"} and body["error"]["code"] == code, body
    return body["error"]


def award(player: str, entry_id: str, place: int, amount: int, tid: str = "t-1") -> RecordedEvent:
    data = {"tournament_id": tid, "game": "line", "player_id": player, "entry_id": entry_id, "place": place}
    data |= {"currency": "shards", "amount": amount}
    return RecordedEvent(
        uuid.uuid4(),
        f"tournament-{tid}",
        9,
        9,
        "TournamentPlaceAwarded",
        1,
        datetime.now(UTC),
        None,
        None,
        data,
    )


def deliver(svc: EconomyService, event: RecordedEvent) -> None:
    (sub, _sessions) = definition("economy").subscriptions
    with svc.pool.connection() as conn, conn.transaction():
        handler_for(sub, svc)(event, conn)


def test_bad_entries_are_refused_with_every_problem_and_write_nothing(client: Any, counts: Any) -> None:
    me = client()
    before = counts()
    errors = refused(me.post(ENTRIES, {"cards": TEN}), 422, "invalid_entry")  # nothing owned yet
    assert len(errors["details"]["problems"]) == 10
    me.post("/v1/line/welcome")
    before = counts()
    nine = refused(me.post(ENTRIES, {"cards": TEN[:9]}), 422, "invalid_entry")
    assert nine["details"]["problems"] == ["an entry is 10 cards, not 9"]
    twice = refused(me.post(ENTRIES, {"cards": [*TEN[:9], TEN[0]]}), 422, "invalid_entry")
    assert twice["details"]["problems"] == [f"{TEN[0]} is entered more than once"]
    unknown = refused(me.post(ENTRIES, {"cards": [*TEN[:9], "no_such_card"]}), 422, "invalid_entry")
    assert unknown["details"]["problems"] == ["no_such_card is not a card of this game"]
    refused(me.post(ENTRIES, {"cards": "ten"}), 422, "validation_error")
    assert counts() == before


def test_one_entry_open_at_a_time_and_its_cards_go_only_to_the_match_services_topic(
    client: Any, svc: EconomyService, counts: Any
) -> None:
    me = client()
    me.post("/v1/line/welcome")
    r = me.post(ENTRIES, {"cards": TEN})
    assert r.status_code == 201, r.get_json()
    entry = r.get_json()
    assert entry["cards"] == TEN and entry["game"] == "line"
    before = counts()
    again = refused(me.post(ENTRIES, {"cards": TEN}), 409, "already_entered")
    assert again["details"] == {"entry_id": entry["entry_id"]}
    assert counts() == before
    (stored,) = [e for e in svc.events.read(f"line-{me.id}") if e.type == "TournamentEntryMade"]
    topics = {topic: e.data for topic, e in route(stored, svc.events)}
    assert topics["arcana.economy.decks"]["cards"] == TEN
    assert "cards" not in topics["arcana.economy.events"]


def test_a_place_award_is_paid_once_however_delivered_and_closes_the_entry(
    client: Any, svc: EconomyService
) -> None:
    me = client()
    me.post("/v1/line/welcome")
    entry_id = me.post(ENTRIES, {"cards": TEN}).get_json()["entry_id"]
    shards = svc.wallet(me.id)["shards"]
    paid = award(me.id, entry_id, 3, 1_500)
    deliver(svc, paid)
    deliver(svc, paid)  # the same message again
    deliver(svc, award(me.id, entry_id, 3, 1_500))  # the same award under another event id
    assert svc.wallet(me.id)["shards"] == shards + 1_500
    assert me.post(ENTRIES, {"cards": TEN}).status_code == 201  # the entry was closed: enter again


@pytest.mark.parametrize(("place", "amount"), [(3, 6_000), (9, 500), (1, 0)])
def test_an_award_that_is_not_what_its_place_pays_is_parked_unpaid(
    client: Any, svc: EconomyService, place: int, amount: int
) -> None:
    me = client()
    shards = svc.wallet(me.id)["shards"]
    with pytest.raises(Unacceptable):
        deliver(svc, award(me.id, "e-1", place, amount))
    assert svc.wallet(me.id)["shards"] == shards


def test_three_entries_a_utc_day(client: Any, svc: EconomyService) -> None:
    me = client()
    me.post("/v1/line/welcome")
    now = clock.now()
    clock.set_offset((datetime.combine(now.date(), time(23, 0), UTC) - now).total_seconds())
    try:
        for n in range(3):
            entry_id = me.post(ENTRIES, {"cards": TEN}).get_json()["entry_id"]
            deliver(svc, award(me.id, entry_id, 5, 500, tid=f"t-{n}"))
        late = refused(me.post(ENTRIES, {"cards": TEN}), 409, "daily_entries_reached")
        assert late["details"] == {"limit": 3}
        clock.set_offset(clock.offset_seconds() + 3_600)  # the next UTC day
        assert me.post(ENTRIES, {"cards": TEN}).status_code == 201
    finally:
        clock.set_offset(0)
