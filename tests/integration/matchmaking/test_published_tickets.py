"""What matchmaking's relay puts on its topic, on the real PostgreSQL and broker, through the
service's declared publication: no deck list (issue 34, finding 2: `TicketOpened` carried the
ticket's cards while the ranked match ran, readable by the analysts' Kafka user), not even for a
`TicketOpened` stored in version 1 with its list; and every `TicketPaired` and `TicketMatched`
names its player (issue 32, point 5), a version 1 one too."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable

from libs import clock
from libs.analytics.export import ExportFilter, events
from libs.bus import OutboxRelay
from libs.eventstore import NewEvent
from libs.games.arcana import STARTER_DECK
from libs.kit import definition
from services.matchmaking import projections
from services.matchmaking.service import MatchmakingService
from tests.integration.bus.helpers import RawReader, wait_until

from .conftest import foreign_event, requested, retargeted

OWN_DECK = ["iron_juggernaut", *STARTER_DECK[:19]]  # a deck of the player's own


def _stored_before(mm: MatchmakingService, player: str) -> str:
    """A ticket paired and matched before version 2, stored as it was (its list in TicketOpened,
    no player in TicketPaired and TicketMatched)."""
    ticket, now = str(uuid.uuid4()), clock.now().isoformat()
    old = [
        NewEvent("TicketOpened", {
            "ticket_id": ticket, "player_id": player, "mode": "ranked", "rating": 900,
            "deck": OWN_DECK, "opened_at": now,
        }),
        NewEvent("TicketPaired", {
            "ticket_id": ticket, "request_id": "r-old", "match_id": "m-old", "opponent_id": "q",
            "opponent_ticket": "u", "rating_gap": 0, "paired_at": now,
        }),
        NewEvent("TicketMatched", {"ticket_id": ticket, "match_id": "m-old"}),
    ]  # fmt: skip
    with mm.pool.connection() as conn, conn.transaction():
        for recorded in mm.events.append(f"ticket-{ticket}", 0, old, conn=conn):
            projections.apply(conn, mm.schema, recorded)
    return ticket


def test_the_topic_carries_no_deck_list_and_names_each_tickets_player(
    mm: MatchmakingService, deliver: Callable, kafka_bootstrap: str
) -> None:
    ada, bob, cy = (str(uuid.uuid4()) for _ in range(3))
    own = {
        "player_id": ada,
        "deck_id": "d7",
        "name": "mine",
        "cards": OWN_DECK,
        "legal": True,
        "problems": [],
    }
    deliver(foreign_event("ActiveDeckChanged", own, f"decks-{ada}", version=4, position=9))
    old_ticket = _stored_before(mm, cy)
    a, b = mm.join(ada, "ranked"), mm.join(bob, "ranked")
    assert mm.pair().pairs == 1
    (req,) = requested(mm)
    created = {"match_id": req["match_id"], "mode": "ranked", "players": [ada, bob], "bot": None}
    deliver(foreign_event("MatchCreated", {**created, "request_id": req["request_id"]}))
    publication, stored = retargeted("matchmaking"), len(list(mm.events.iter_all()))
    topic = publication.topics[0]
    relay = OutboxRelay(mm.events, topic.split(".")[1], kafka_bootstrap, publication=publication)
    reader = RawReader(kafka_bootstrap, topic)
    relay.start()
    try:
        wait_until(lambda: relay.progress()[0] == mm.events.head_position(), 30, "the relay at the head")
        published = [m.event for m in reader.read_at_least(stored, 30)]
    finally:
        relay.stop()
        reader.close()
    text = json.dumps(published)
    assert not [card for card in set(STARTER_DECK) | set(OWN_DECK) if card in text]  # no deck list at all
    opened = {e["data"]["ticket_id"]: e for e in published if e["type"] == "TicketOpened"}
    assert {k: (e["schema_version"], e["data"]["deck_id"]) for k, e in opened.items()} == {
        a.ticket_id: (2, "d7"),
        b.ticket_id: (2, "starter"),
        old_ticket: (2, None),  # stored with its list in version 1: published without it
    }
    assert opened[a.ticket_id]["data"]["deck_version"] == 4  # economy's deck stream version
    owners = {a.ticket_id: ada, b.ticket_id: bob, old_ticket: cy}
    named = [e for e in published if e["type"] in ("TicketPaired", "TicketMatched")]
    assert len(named) == 6 and {e["schema_version"] for e in named} == {2}
    assert all(e["data"]["player_id"] == owners[e["data"]["ticket_id"]] for e in named)


def test_the_export_reads_every_ticket_event_in_its_current_shape(mm: MatchmakingService) -> None:
    """``arcana export`` reads through the service's upcasters: no deck list either (a version 1
    `TicketOpened` upcast), and the players of the tickets paired since version 2."""
    old_ticket = _stored_before(mm, str(uuid.uuid4()))
    a, b = mm.join(str(uuid.uuid4()), "casual"), mm.join(str(uuid.uuid4()), "casual")
    assert mm.pair().pairs == 1
    upcasters = definition("matchmaking").upcasters
    assert upcasters is not None
    where = ExportFilter(("matchmaking",), {"matchmaking": mm.schema}, {"matchmaking": upcasters})
    with mm.pool.connection() as conn:
        exported = list(events(conn, where))
    assert not [e for e in exported if "deck" in e["data"]]
    paired = {e["data"]["ticket_id"]: e["data"]["player_id"] for e in exported if e["type"] == "TicketPaired"}
    assert paired == {a.ticket_id: a.player_id, b.ticket_id: b.player_id, old_ticket: None}
