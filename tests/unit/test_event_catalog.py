"""docs/events.md is generated from the services' declarations and must not go stale."""

from __future__ import annotations

import dataclasses
import tomllib

from libs import kit
from libs.bus.topics import lifecycle_topic_for, topic_for
from libs.config import PROJECT_ROOT
from libs.kit.catalog import render
from libs.kit.docs import generated, render_flows, render_layers


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
                # one declaration per type, or per game when a game's type shares Arcana's name
                assert (catalog.topic, kit.qualified_type(event)) not in seen
                seen.add((catalog.topic, kit.qualified_type(event)))
                undocumented = [f for f in dataclasses.fields(event) if not f.metadata.get("doc")]
                assert not undocumented, f"{event.TYPE}: fields without a doc: {undocumented}"


def test_the_catalog_names_publishers_and_consumers() -> None:
    text = render(kit.discover())
    assert "### MatchEnded (schema version 1)" in text and "Published by match" in text
    assert "| `player_id` | `str` |" in text


def test_services_consume_only_events_and_lifecycle_topics() -> None:
    """Services consume another's ``.events`` or ``.lifecycle`` topic, or one it declares private
    (economy's deck lists, for match alone: tests/unit/deploy/test_kafka_acls.py). Match's complete
    records of ended matches (every hidden card) are for analysts: no service subscribes to them."""
    services = kit.discover()
    consumable = {t for s in services for t in (topic_for(s.name), lifecycle_topic_for(s.name))}
    consumable |= {c.topic for s in services for c in s.events if c.private}
    for svc in services:
        for sub in svc.subscriptions:
            assert set(sub.topics) <= consumable, (svc.name, sub.name, sub.topics)
            assert "arcana.match.records" not in sub.topics


def test_the_generated_parts_of_the_docs_are_current() -> None:
    """docs/events.md and the tables of docs/architecture.md between its generated markers."""
    for path, text in generated(kit.discover()).items():
        assert path.read_text() == text, f"run `make docs-events` and commit {path.name}"


def test_the_flows_table_names_every_consumer_and_what_it_reads() -> None:
    services = kit.discover()
    rows = {row.split(" | ")[0].strip("| "): row for row in render_flows(services).splitlines()[2:]}
    assert sorted(rows) == sorted(s.name for s in services)
    for svc in services:
        for catalog in svc.events:
            assert f"`{catalog.topic}`" in rows[svc.name].split(" | ")[1]
        consumed = rows[svc.name].split(" | ")[2]
        for sub in svc.subscriptions:
            assert f"`{sub.name}`: " in consumed
            assert all(f"`{t}`" in consumed for t in sub.types), (svc.name, sub.name)


def test_a_new_subscription_makes_the_checked_in_architecture_stale() -> None:
    services = kit.discover()
    ratings = next(s for s in services if s.name == "ratings")
    planted = kit.Subscription("ratings-levels", ("arcana.progression.events",), {"PassLevelReached": print})
    changed = [
        dataclasses.replace(ratings, subscriptions=(*ratings.subscriptions, planted)) if s is ratings else s
        for s in services
    ]
    architecture = PROJECT_ROOT / "docs" / "architecture.md"
    assert generated(changed)[architecture] != architecture.read_text()
    assert "`ratings-levels`: `PassLevelReached` from `arcana.progression.events`" in render_flows(changed)


def test_the_layers_table_is_the_import_contracts() -> None:
    table = render_layers().splitlines()[2:]
    contract = next(
        c
        for c in tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text())["tool"]["importlinter"][
            "contracts"
        ]
        if c["name"].startswith("Layers of libs")
    )
    assert len(table) == len(contract["layers"])
    for row, layer in zip(table, contract["layers"], strict=True):
        for name in layer.replace(":", "|").split("|"):
            assert f"`libs/{name.strip().strip('()')}`" in row
