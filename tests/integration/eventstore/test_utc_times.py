"""Event times are UTC whatever the time zone of the session that reads them: a caller's connection
set to another zone, a server whose default is not UTC, or an envelope written elsewhere."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from psycopg_pool import ConnectionPool

from libs.eventstore import EventStore, Expect, NewEvent, RecordedEvent

AT = datetime(2026, 11, 30, 23, 30, tzinfo=UTC)  # already 1 December in Tokyo


def test_events_read_on_a_session_in_another_time_zone_come_out_in_utc(
    store: EventStore, pool: ConnectionPool
) -> None:
    store.append("s-1", Expect.NO_STREAM, [NewEvent("Thing", {}, occurred_at=AT)])
    with pool.connection() as conn:
        conn.execute("SET TimeZone = 'Asia/Tokyo'")
        try:
            read = store.read("s-1", conn=conn) + store.read_all(0, conn=conn)
        finally:
            conn.execute("SET TimeZone = 'UTC'")
    for event in read:
        assert event.occurred_at == AT and event.occurred_at.utcoffset() == timedelta(0)
        assert event.to_dict()["occurred_at"] == "2026-11-30T23:30:00+00:00"


def test_an_envelope_with_another_offset_reads_as_utc() -> None:
    tokyo = AT.astimezone(timezone(timedelta(hours=9)))
    raw = RecordedEvent("00000000-0000-0000-0000-000000000001", "s", 1, 1, "Thing", 1, tokyo, None, None, {})  # type: ignore[arg-type]
    assert raw.to_dict()["occurred_at"] == "2026-11-30T23:30:00+00:00"
    again = RecordedEvent.from_dict({**raw.to_dict(), "occurred_at": tokyo.isoformat()})
    assert again.occurred_at.tzinfo is UTC
    assert NewEvent("Thing", {}, occurred_at=tokyo).to_dict()["occurred_at"] == "2026-11-30T23:30:00+00:00"
