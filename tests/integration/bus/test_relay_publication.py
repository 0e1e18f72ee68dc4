"""A service's declared publication (``ServiceDef.publication``): the relay publishes what each
stored event becomes on which topic, creates every topic, and records progress only once every
topic confirmed the page."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest

from libs.bus import OutboxRelay, topic_for
from libs.eventstore import EventStore, Expect, NewEvent, RecordedEvent
from libs.kit import Publication
from tests.integration.bus.helpers import RawReader, wait_until


def _publication(service: str) -> Publication:
    live, archive = topic_for(service), f"arcana.{service}.archive"

    def route(event: RecordedEvent, store: EventStore) -> Sequence[tuple[str, RecordedEvent]]:
        if event.type == "Secret":
            return []
        public = dataclasses.replace(event, data={k: v for k, v in event.data.items() if k != "hidden"})
        out = [(live, public)]
        if event.type == "Closed":  # the whole stream, as stored, once it is closed
            out += [(archive, e) for e in store.read(event.stream, 1, event.version)]
        return out

    return Publication((live, archive), route)


def test_the_relay_follows_the_declared_publication(
    store: EventStore, service: str, kafka_bootstrap: str
) -> None:
    publication = _publication(service)
    store.append(
        "s-1",
        Expect.NO_STREAM,
        [
            NewEvent("Opened", {"n": 1, "hidden": "h1"}),
            NewEvent("Secret", {"hidden": "h2"}),
            NewEvent("Closed", {"n": 3}),
        ],
    )
    relay = OutboxRelay(store, service, kafka_bootstrap, publication=publication)
    live, archive = (RawReader(kafka_bootstrap, t) for t in publication.topics)
    relay.start()
    try:
        on_archive = archive.read_at_least(3, timeout=30)  # the relay created the second topic
        on_live = live.read_at_least(2, timeout=30)
        wait_until(lambda: relay.progress()[0] == store.head_position(), 10, "progress at the head")
    finally:
        relay.stop()
        live.close()
        archive.close()
    assert [(m.event["type"], m.event["data"]) for m in on_live] == [
        ("Opened", {"n": 1}),
        ("Closed", {"n": 3}),
    ]
    assert [m.event for m in on_archive] == [e.to_dict() for e in store.read("s-1")]


def test_a_publication_starts_with_the_services_events_topic(store: EventStore, service: str) -> None:
    wrong = Publication((f"arcana.{service}.archive",), lambda e, s: [])
    with pytest.raises(ValueError, match="first topic"):
        OutboxRelay(store, service, "127.0.0.1:1", publication=wrong)
