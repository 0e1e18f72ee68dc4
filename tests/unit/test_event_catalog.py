"""docs/events.md is generated from the services' declarations and must not go stale."""

from __future__ import annotations

import dataclasses

from libs import kit
from libs.bus.topics import lifecycle_topic_for, topic_for
from libs.config import PROJECT_ROOT
from libs.kit.catalog import render


def test_the_checked_in_event_catalog_is_current() -> None:
    checked_in = (PROJECT_ROOT / "docs" / "events.md").read_text()
    assert checked_in == render(kit.discover()), "run `make docs-events` and commit docs/events.md"


def _topics(svc: kit.ServiceDef) -> tuple[str, ...]:
    """The topics a service publishes to: its publication's, else its events topic."""
    return svc.publication.topics if svc.publication else (f"arcana.{svc.name}.events",)


def test_every_published_event_is_a_typed_versioned_dataclass_on_its_services_topic() -> None:
    seen: set[tuple[str, str]] = set()
    for svc in kit.discover():
        assert _topics(svc)[0] == f"arcana.{svc.name}.events"
        assert all(t.startswith(f"arcana.{svc.name}.") for t in _topics(svc))
        if svc.events:  # every topic it publishes to is declared, and nothing else
            assert sorted(c.topic for c in svc.events) == sorted(_topics(svc))
        for catalog in svc.events:
            assert catalog.service == svc.name and catalog.topic in _topics(svc)
            for event in catalog.events:
                assert dataclasses.is_dataclass(event) and event.VERSION >= 1
                assert (catalog.topic, event.TYPE) not in seen
                seen.add((catalog.topic, event.TYPE))
                undocumented = [f for f in dataclasses.fields(event) if not f.metadata.get("doc")]
                assert not undocumented, f"{event.TYPE}: fields without a doc: {undocumented}"


def test_the_catalog_names_publishers_and_consumers() -> None:
    text = render(kit.discover())
    assert "### MatchEnded (schema version 1)" in text and "Published by match" in text
    assert "| `player_id` | `str` |" in text


def test_services_consume_only_events_and_lifecycle_topics() -> None:
    """Services consume another's ``.events`` or ``.lifecycle`` topic. Match's complete records of
    ended matches (every hidden card) are for analysts: no service subscribes to them."""
    services = kit.discover()
    consumable = {t for s in services for t in (topic_for(s.name), lifecycle_topic_for(s.name))}
    for svc in services:
        for sub in svc.subscriptions:
            assert set(sub.topics) <= consumable, (svc.name, sub.name, sub.topics)
            assert "arcana.match.records" not in sub.topics
