"""A relay checks what it publishes against the topic's declared schemas (issue 20, point 4): strict,
an event that does not conform stops the page (nothing published, progress kept); otherwise it is
published and logged."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import ClassVar

import pytest

from libs.bus.relay import OutboxRelay, SchemaViolation
from libs.bus.topics import topic_for
from libs.eventstore import EventStore, Expect, NewEvent
from libs.kit.events import EventCatalog
from libs.kit.schemas import catalog_check


@dataclass(frozen=True)
class ScoreKept:
    TYPE: ClassVar[str] = "ScoreKept"
    VERSION: ClassVar[int] = 1
    player_id: str = field(metadata={"doc": "who"})
    score: int = field(metadata={"doc": "how much"})


def relay_for(store: EventStore, kafka_bootstrap: str, strict: bool) -> OutboxRelay:
    service = store.schema
    catalog = EventCatalog(service, topic_for(service), (ScoreKept,))
    return OutboxRelay(store, service, kafka_bootstrap, check=catalog_check([catalog]), strict=strict)


def test_strict_refuses_a_page_with_an_event_its_topic_does_not_declare(
    store: EventStore, kafka_bootstrap: str
) -> None:
    relay = relay_for(store, kafka_bootstrap, strict=True)
    store.append("s-1", Expect.NO_STREAM, [NewEvent("ScoreKept", {"player_id": "p", "score": 3})])
    assert relay.step() == 1
    store.append("s-1", 1, [NewEvent("ScoreKept", {"player_id": "p", "score": "three"})])
    with pytest.raises(SchemaViolation, match="'score' is not int"):
        relay.step()
    assert relay.progress()[0] == 1  # the bad page is not recorded as published


def test_by_default_a_violation_is_logged_and_the_event_published(
    store: EventStore, kafka_bootstrap: str, caplog: pytest.LogCaptureFixture
) -> None:
    relay = relay_for(store, kafka_bootstrap, strict=False)
    store.append("s-1", Expect.NO_STREAM, [NewEvent("Unheard", {"x": 1})])
    with caplog.at_level(logging.ERROR, logger="libs.bus.relay"):
        assert relay.step() == 1
    assert "schema violation" in caplog.text and "Unheard is not declared" in caplog.text
