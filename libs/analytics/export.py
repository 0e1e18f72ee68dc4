"""The event logs of one or more services, filtered and merged in time order, for analysts.

Each exported event is its envelope as the service reads it (an event stored in an older shape is
upcast to the current one, with its ``schema_version``: e.g. economy's version 1 events gain the
``player_id`` their stream named, a match's version 1 events name their ``player`` ``player_id``)
plus ``service``, the service whose store holds it.
``occurred_at`` is always UTC.
Positions are per service: ``(service, position)`` identifies an event's place, ``event_id`` the
event itself (deduplicate on it when you also read the topics, where republishing is normal).

What is read: each service's analysts' view (``libs.db.analyst``) when the database has one, as
every database ``arcana migrate`` made has: a match's events only once it has ended, every other
service's events all. So an export resumed from a position of match misses the matches that were
still running at the previous one: export match by ``--type``/``--stream``/time again instead.

Order: by ``occurred_at``, then service, then position. One service alone with no time filter is
exported in position order (the order its relay publishes), so an export can resume from a
position.
"""

from __future__ import annotations

import dataclasses
import heapq
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg import sql

from libs.db.analyst import readable_schema
from libs.eventstore import RecordedEvent, Upcasters

COLUMNS = (
    "event_id",
    "stream",
    "version",
    "position",
    "type",
    "schema_version",
    "occurred_at",
    "correlation_id",
    "causation_id",
    "data",
)


class ExportRefused(ValueError):
    """The filters asked for contradict each other (e.g. an end position over several services)."""


@dataclass(frozen=True)
class ExportFilter:
    """Which events to export. Times are inclusive-exclusive: ``since <= occurred_at < until``."""

    services: tuple[str, ...]
    schemas: Mapping[str, str] = field(default_factory=dict)  # service -> schema, default its name
    upcasters: Mapping[str, Upcasters] = field(default_factory=dict)  # service -> its upcasters
    since: datetime | None = None
    until: datetime | None = None
    types: frozenset[str] = field(default_factory=frozenset)
    stream: str | None = None
    from_position: int = 0
    to_position: int | None = None

    def __post_init__(self) -> None:
        if not self.services:
            raise ExportRefused("name at least one service")
        if len(self.services) > 1 and (self.from_position or self.to_position is not None):
            raise ExportRefused("positions are per service: --from-position/--to-position need one service")
        if self.since and self.until and self.since >= self.until:
            raise ExportRefused("--since must be before --until")
        for moment in (self.since, self.until):
            if moment is not None and moment.tzinfo is None:
                raise ExportRefused("times need a time zone (e.g. 2026-12-01T00:00:00Z)")

    def schema(self, service: str) -> str:
        return self.schemas.get(service, service)

    def read_as_current(self, service: str, event: RecordedEvent) -> RecordedEvent:
        upcasters = self.upcasters.get(service)
        return upcasters.upcast(event) if upcasters is not None else event

    @property
    def in_position_order(self) -> bool:
        return len(self.services) == 1 and self.since is None and self.until is None


def through_analysts_views(conn: psycopg.Connection[Any], where: ExportFilter) -> ExportFilter:
    """``where`` reading each service's analysts' view (``libs.db.analyst``: a match only once it
    has ended) where the database has one."""
    schemas = {s: readable_schema(conn, where.schema(s)) for s in where.services}
    return dataclasses.replace(where, schemas=schemas)


def _query(service: str, where: ExportFilter) -> tuple[sql.Composed, list[Any]]:
    conditions: list[sql.Composable] = [sql.SQL("position > %s")]
    params: list[Any] = [where.from_position]
    if where.to_position is not None:
        conditions.append(sql.SQL("position <= %s"))
        params.append(where.to_position)
    if where.since is not None:
        conditions.append(sql.SQL("occurred_at >= %s"))
        params.append(where.since)
    if where.until is not None:
        conditions.append(sql.SQL("occurred_at < %s"))
        params.append(where.until)
    if where.types:
        conditions.append(sql.SQL("type = ANY(%s)"))
        params.append(sorted(where.types))
    if where.stream is not None:
        conditions.append(sql.SQL("stream = %s"))
        params.append(where.stream)
    order = "position" if where.in_position_order else "occurred_at, position"
    query = sql.SQL("SELECT {cols} FROM {table} WHERE {cond} ORDER BY {order}").format(
        cols=sql.SQL(", ").join(map(sql.Identifier, COLUMNS)),
        table=sql.Identifier(where.schema(service), "events"),
        cond=sql.SQL(" AND ").join(conditions),
        order=sql.SQL(order),
    )
    return query, params


def _row(service: str, event: RecordedEvent, where: ExportFilter) -> dict[str, Any]:
    return {"service": service, **where.read_as_current(service, event).to_dict()}


def _one_service(
    conn: psycopg.Connection[Any], service: str, where: ExportFilter
) -> Iterator[dict[str, Any]]:
    query, params = _query(service, where)
    # A named (server-side) cursor streams a log of any length in bounded memory.
    with conn.cursor(name=f"export_{service}") as cur:
        cur.itersize = 2000
        cur.execute(query, params)
        for row in cur:
            yield _row(service, RecordedEvent(*row), where)


def _sort_key(event: dict[str, Any]) -> tuple[str, str, int]:
    return (event["occurred_at"], event["service"], event["position"])


def events(conn: psycopg.Connection[Any], where: ExportFilter) -> Iterator[dict[str, Any]]:
    """The events ``where`` selects, as JSON-able dicts, in export order (see the module doc).

    ``conn`` must be in a transaction (named cursors live in one)."""
    per_service = [_one_service(conn, service, where) for service in where.services]
    if len(per_service) == 1:
        return per_service[0]
    return heapq.merge(*per_service, key=_sort_key)


def count(conn: psycopg.Connection[Any], where: ExportFilter) -> int:
    """How many events ``where`` selects (for progress)."""
    total = 0
    for service in where.services:
        query, params = _query(service, where)
        counted = sql.SQL("SELECT count(*) FROM ({}) AS selected").format(query)
        row = conn.execute(counted, params).fetchone()
        total += int(row[0]) if row else 0
    return total


def service_of_topic(topic: str) -> str:
    """``arcana.<service>.<kind>`` -> ``<service>``."""
    parts = topic.split(".")
    if len(parts) != 3 or parts[0] != "arcana":
        raise ExportRefused(f"not a topic of the project: {topic!r} (arcana.<service>.<kind>)")
    return parts[1]


def from_recorded(
    service: str, events: Iterable[RecordedEvent], where: ExportFilter
) -> Iterator[dict[str, Any]]:
    """Events read elsewhere (a topic) as export rows, with ``where``'s filters applied here."""
    for event in events:
        at = event.occurred_at
        if (
            event.position <= where.from_position
            or (where.to_position is not None and event.position > where.to_position)
            or (where.since is not None and at < where.since)
            or (where.until is not None and at >= where.until)
            or (where.types and event.type not in where.types)
            or (where.stream is not None and event.stream != where.stream)
        ):
            continue
        yield _row(service, event, where)


def as_json_line(event: dict[str, Any]) -> str:
    return json.dumps(event, separators=(",", ":"), sort_keys=True) + "\n"


def parse_time(text: str) -> datetime:
    """An ISO 8601 time; one without a zone (a bare date: its midnight) is UTC."""
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def write_json_lines(rows: Iterable[dict[str, Any]], out: Any) -> int:
    written = 0
    for event in rows:
        out.write(as_json_line(event))
        written += 1
    return written
