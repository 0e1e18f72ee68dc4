"""A season pass is a long stream: its snapshot stands in for the events it covers, and the pass
loaded from a snapshot and its tail is the pass folded from every event (real PostgreSQL)."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest
from psycopg_pool import ConnectionPool

from libs import clock
from libs.eventstore import Fold
from services.progression import service as progression_service
from services.progression.consumers import match_ended as consume_match_ended
from services.progression.domain import season_of, season_pass
from services.progression.service import ProgressionService
from tests.integration.progression.conftest import match_ended


def test_a_pass_from_its_snapshot_and_tail_is_the_pass_from_every_event(
    pool: ConnectionPool, progression: ProgressionService, monkeypatch: pytest.MonkeyPatch
) -> None:
    policy = dataclasses.replace(progression_service.PASS_SNAPSHOTS, every=3)
    monkeypatch.setattr(progression_service, "PASS_SNAPSHOTS", policy)
    at = clock.now()
    a, b = "snap-a", "snap-b"
    for i in range(8):
        event = match_ended((a, b), a if i % 2 else b, at + dt.timedelta(seconds=i))
        with pool.connection() as conn, conn.transaction():
            consume_match_ended(progression, event, conn)
    season = season_of(at.date())
    assert season is not None
    stream = season_pass.pass_stream(a, season.id)
    kept = progression.store.load_snapshot(stream)
    assert kept is not None and kept[0] >= 3 and kept[1]["shape"] == policy.version
    evolve = progression_service._evolving(season_pass.evolve)
    full = Fold(lambda: season_pass.SeasonPass(a, season.id), evolve)
    with pool.connection() as conn:
        from_events = progression.repository.get(conn, stream, full)
        from_snapshot = progression.repository.get(conn, stream, dataclasses.replace(full, snapshots=policy))
    from_snapshot.state.version = from_snapshot.version  # as the service sets it
    assert from_snapshot == from_events and from_events.state.xp > 0
    assert from_events.version == len(progression.store.read(stream)) == from_events.state.version
