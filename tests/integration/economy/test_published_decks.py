"""What economy's relay puts on the bus, on the real PostgreSQL and broker, through the service's
declared publication (issue 34, finding 2): `arcana.economy.events`, which the analysts' Kafka user
reads while matches run, carries no deck list (`DeckSaved`, `LineDeckSaved` and `ActiveDeckChanged`
come without their cards); the active decks with their cards go to `arcana.economy.decks` alone,
which only the match service may read (tests/unit/deploy/test_kafka_acls.py)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from libs.bus import OutboxRelay, topic_for
from libs.eventstore import EventStore, RecordedEvent
from libs.games.line import WELCOME_LINE
from libs.kit import Publication, definition
from services.economy.domain.values import STARTER_DECK_CARDS
from services.economy.service import EconomyService
from tests.integration.bus.helpers import RawReader, wait_until

DECK_EVENTS = {"DeckSaved": 3, "LineDeckSaved": 2, "ActiveDeckChanged": 2}


def _on_own_topics(service: str) -> Publication:
    """``service``'s declared publication (every event as stored on its events topic without one),
    each of its topics renamed to one of the test's own on the shared broker (``arcana.<own>.events``,
    ``arcana.<own>.decks``...)."""
    declared = definition(service).publication or Publication(
        (topic_for(service),), lambda event, _store: [(topic_for(service), event)]
    )
    own = f"{service[:3]}{uuid.uuid4().hex[:10]}"
    renamed = {topic: topic.replace(f".{service}.", f".{own}.") for topic in declared.topics}

    def route(event: RecordedEvent, store: EventStore) -> Sequence[tuple[str, RecordedEvent]]:
        return [(renamed[topic], e) for topic, e in declared.route(event, store)]

    return Publication(tuple(renamed.values()), route)


def _published(svc: EconomyService, bootstrap: str) -> dict[str, list[dict]]:
    """Every message the service's relay publishes of its store, by topic (as declared)."""
    publication = _on_own_topics("economy")
    own = publication.topics[0].split(".")[1]
    relay = OutboxRelay(svc.events, own, bootstrap, publication=publication)
    readers = {topic.replace(own, "economy"): RawReader(bootstrap, topic) for topic in publication.topics}
    stored = list(svc.events.iter_all())
    expected = {
        "arcana.economy.events": len(stored),
        "arcana.economy.decks": sum(e.type == "ActiveDeckChanged" for e in stored),
    }
    relay.start()
    try:
        wait_until(lambda: relay.progress()[0] == svc.events.head_position(), 30, "the relay at the head")
        return {
            topic: [m.event for m in reader.read_at_least(expected[topic], 30)]
            for topic, reader in readers.items()
        }
    finally:
        relay.stop()
        for reader in readers.values():
            reader.close()


def test_the_public_topic_carries_no_deck_list_and_match_gets_the_active_decks(
    svc: EconomyService, new_player, kafka_bootstrap: str
) -> None:
    player = new_player()  # the starter deck saved and active
    mine = svc.save_deck(player, None, "mine", list(reversed(STARTER_DECK_CARDS)))
    svc.activate_deck(player, mine["deck_id"])
    svc.line.claim_welcome(player)
    line = svc.line.save(player, None, "front", list(WELCOME_LINE))
    svc.line.activate(player, line["deck_id"])

    published = _published(svc, kafka_bootstrap)

    public = published["arcana.economy.events"]
    decks = [e for e in public if e["type"] in DECK_EVENTS]
    assert {e["type"] for e in decks} == set(DECK_EVENTS)
    assert [e for e in decks if "cards" in e["data"]] == []  # no deck list at all
    assert all(e["schema_version"] == DECK_EVENTS[e["type"]] for e in decks)
    in_full = published.get("arcana.economy.decks", [])
    assert {e["type"] for e in in_full} == {"ActiveDeckChanged"}
    last = {e["data"]["game"]: e for e in in_full}  # in order: a stream keeps its partition
    assert last["arcana"]["data"]["cards"] == list(reversed(STARTER_DECK_CARDS))
    assert last["line"]["data"]["cards"] == list(WELCOME_LINE)
    # the same facts, at the same versions of economy's streams (a ticket's deck_version)
    assert {(e["stream"], e["version"]) for e in in_full} == {
        (e["stream"], e["version"]) for e in public if e["type"] == "ActiveDeckChanged"
    }
