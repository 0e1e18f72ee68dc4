"""Load an export (JSON Lines of ``arcana export``) into empty event stores, e.g. an analyst's own
database; ``arcana rebuild`` then gives the read models back.

Every event keeps its envelope as exported (event id, stream, version, type, schema version, time,
correlation and causation; an export has upcast older shapes, so the target holds current ones);
positions are given anew by the target store, in the order of the original positions, so each
service's relative order (and every stream's versions) is what it was.
The whole export is held in memory, grouped by service.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from psycopg import sql
from psycopg_pool import ConnectionPool

from libs.eventstore import EventStore, NewEvent, RecordedEvent


class ImportRefused(ValueError):
    """The export cannot go where it was asked to (a line that is not an exported event, a service
    with nowhere to go, a target store that already holds events)."""


def read_export(lines: Iterable[str]) -> dict[str, list[RecordedEvent]]:
    """The events of an export, per service, each service's in original position order."""
    found: dict[str, list[RecordedEvent]] = defaultdict(list)
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            raw: dict[str, Any] = json.loads(line)
            service = raw["service"]
            found[service].append(RecordedEvent.from_dict(raw))
        except (ValueError, KeyError, TypeError) as exc:
            raise ImportRefused(f"line {number} is not an exported event: {exc}") from None
    for events in found.values():
        events.sort(key=lambda e: e.position)
    return dict(found)


def _is_empty(pool: ConnectionPool, schema: str) -> bool:
    query = sql.SQL("SELECT NOT EXISTS (SELECT 1 FROM {})").format(sql.Identifier(schema, "events"))
    with pool.connection() as conn:
        row = conn.execute(query).fetchone()
    return bool(row and row[0])


def _as_new(event: RecordedEvent) -> NewEvent:
    return NewEvent(
        event.type,
        event.data,
        schema_version=event.schema_version,
        event_id=event.event_id,
        occurred_at=event.occurred_at,
        correlation_id=event.correlation_id,
        causation_id=event.causation_id,
    )


def _runs(events: list[RecordedEvent]) -> Iterable[list[RecordedEvent]]:
    """Consecutive events of one stream: one append each."""
    run: list[RecordedEvent] = []
    for event in events:
        if run and (event.stream != run[-1].stream or event.version != run[-1].version + 1):
            yield run
            run = []
        run.append(event)
    if run:
        yield run


def import_events(
    pool: ConnectionPool, exported: Mapping[str, list[RecordedEvent]], schemas: Mapping[str, str]
) -> dict[str, int]:
    """Append each service's events to its (migrated, empty) schema; returns how many per service."""
    missing = sorted(set(exported) - set(schemas))
    if missing:
        raise ImportRefused(f"no target for service(s) {', '.join(missing)}")
    for service in exported:
        if not _is_empty(pool, schemas[service]):
            raise ImportRefused(f"the event store of {service} (schema {schemas[service]}) is not empty")
    imported = {}
    for service, events in exported.items():
        store = EventStore(pool, schemas[service])
        with pool.connection() as conn:
            for run in _runs(events):
                store.append(
                    run[0].stream, run[0].version - 1, [_as_new(e) for e in run], conn=conn, savepoint=False
                )
        imported[service] = len(events)
    return imported
