"""Snapshots of match state (``MatchRepository``): stored with the append that crosses each multiple
of ``SNAPSHOT_EVERY``; a cold load (a fresh cache: after a restart) reads the snapshot and only the
events after it, and gives exactly the match of a full fold; a snapshot of another shape is
ignored; the sweep's batch load starts from snapshots too; a snapshot never blocks a command."""

from __future__ import annotations

import dataclasses
import random
import threading
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from psycopg_pool import ConnectionPool

from libs.eventstore import StreamCache
from libs.games.arcana import STARTER_DECK
from services.match import domain, repository
from services.match.domain import snapshots
from services.match.repository import MatchRepository, as_rows, stream_of
from services.match.service import MatchService
from services.match.usecases.batch_tick import BatchTicker
from tests.integration.match.play import next_move

Play = Callable[[int], str]  # a long match's id, beyond the version given


@pytest.fixture
def long_match(make_player: Any, admin: Any, svc: MatchService) -> Play:
    """``long_match(past)``: a match played by greedy moves over HTTP until its version is beyond
    ``past`` and its latest snapshot behind it."""

    def play(past: int) -> str:
        alice, bob = make_player(), make_player()
        players = {alice.id: alice, bob.id: bob}
        match_id = admin([alice, bob], [list(STARTER_DECK)] * 2)
        rng = random.Random(3)
        while True:
            m = svc.matches.load(match_id)
            assert m is not None and not m.ended, "the match ended before it was long enough"
            kept = svc.matches.events.load_snapshot(stream_of(match_id))
            if m.version > past and kept is not None and kept[0] < m.version:
                return match_id
            move = next_move(svc, match_id, rng)
            assert move is not None
            player, body = move
            players[player].command(match_id, body)

    return play


@pytest.fixture
def cold(pool: ConnectionPool, match_schema: str) -> MatchRepository:
    """The repository of a restarted process: an empty cache."""
    return MatchRepository(pool, match_schema, StreamCache())


def _reads(repo: MatchRepository, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The first version of each stream read ``repo`` makes from now on."""
    starts: list[int] = []
    read = repo.events.read

    def counted(stream: str, from_version: int = 1, *args: Any, **kw: Any) -> Any:
        starts.append(from_version)
        return read(stream, from_version, *args, **kw)

    monkeypatch.setattr(repo.events, "read", counted)
    return starts


def _full_fold(svc: MatchService, match_id: str) -> domain.Match:
    return domain.fold_match(as_rows(svc.matches.read_events(match_id)))


def _last_hash(svc: MatchService, match_id: str) -> str:
    hashes = [e.data[domain.HASH_KEY] for e in svc.matches.read_events(match_id) if domain.HASH_KEY in e.data]
    return str(hashes[-1])


def test_a_cold_load_reads_the_snapshot_and_only_the_tail_and_gives_the_full_fold(
    long_match: Play, svc: MatchService, cold: MatchRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = long_match(2 * repository.SNAPSHOT_EVERY)
    found = svc.matches.events.load_snapshot(stream_of(match_id))
    assert found is not None
    version, _ = found
    current = svc.matches.events.version(stream_of(match_id))
    assert current - repository.SNAPSHOT_EVERY < version < current  # the last multiple crossed

    starts = _reads(cold, monkeypatch)
    m = cold.load(match_id)
    assert starts == [version + 1]  # the tail only
    assert m == _full_fold(svc, match_id)
    assert m is not None and domain.game_of(m).state_hash(m.rules) == _last_hash(svc, match_id)


def test_a_snapshot_of_another_shape_is_ignored_and_the_stream_folded_from_the_start(
    long_match: Play, svc: MatchService, cold: MatchRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = long_match(repository.SNAPSHOT_EVERY)
    assert svc.matches.events.load_snapshot(stream_of(match_id)) is not None
    monkeypatch.setattr(snapshots, "SHAPE", snapshots.SHAPE + 1)  # the code's Match changed since

    starts = _reads(cold, monkeypatch)
    assert cold.load(match_id) == _full_fold(svc, match_id)
    assert starts == [1]


def test_the_sweeps_batch_load_starts_uncached_matches_from_their_snapshots(
    long_match: Play,
    make_player: Any,
    admin: Any,
    svc: MatchService,
    cold: MatchRepository,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    long_id = long_match(repository.SNAPSHOT_EVERY)
    short_id = admin([make_player(), make_player()], [list(STARTER_DECK)] * 2)  # no snapshot yet
    (version, _) = svc.matches.events.load_snapshot(stream_of(long_id)) or pytest.fail("no snapshot")

    starts: list[dict[str, int]] = []
    read_many = cold.events.read_many

    def counted(wanted: Any, **kw: Any) -> Any:
        starts.append(dict(wanted))
        return read_many(wanted, **kw)

    monkeypatch.setattr(cold.events, "read_many", counted)
    loaded, _ = BatchTicker(cold, svc.system.dispatcher)._load([long_id, short_id])
    assert starts == [{stream_of(long_id): version + 1, stream_of(short_id): 1}]
    assert loaded[long_id] == _full_fold(svc, long_id)
    assert loaded[short_id] == _full_fold(svc, short_id)
    cached = cold.cache.get(stream_of(long_id))
    assert cached is not None and cached.state == loaded[long_id]


def _blocked_backends(pool: ConnectionPool, holder_pid: int) -> int:
    with pool.connection() as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND pid <> %s",
            (holder_pid,),
        ).fetchone()
    return int(row[0]) if row else 0


def test_a_snapshot_being_written_elsewhere_never_blocks_a_command(
    app: Flask,
    make_player: Any,
    admin: Any,
    svc: MatchService,
    pool: ConnectionPool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    every_append = dataclasses.replace(repository.SNAPSHOTS, every=1)  # every append stores one
    served: MatchService = app.extensions["kit_root"].object()  # the repository the requests use
    for matches in (svc.matches, served.matches):
        monkeypatch.setattr(matches, "fold", dataclasses.replace(matches.fold, snapshots=every_append))
    alice, bob = make_player(), make_player()
    match_id = admin([alice, bob], [list(STARTER_DECK)] * 2, first=alice.id)
    before = svc.matches.load(match_id)
    assert before is not None
    taken = svc.matches.events.load_snapshot(stream_of(match_id))
    assert taken is not None and taken[0] == before.version

    done: list[int] = []
    with pool.connection() as holder, holder.transaction():
        # another transaction writing this stream's snapshot (its advisory lock and the row's lock)
        holder_pid = holder.info.backend_pid
        kept_before = {"shape": every_append.version, "state": domain.snapshot_match(before)}
        svc.matches.events.save_snapshot(stream_of(match_id), before.version, kept_before, conn=holder)
        command = threading.Thread(
            target=lambda: done.append(
                alice.fresh()
                .post(f"/v1/matches/{match_id}/commands", {"type": "mulligan", "cards": []})
                .status_code
            )
        )
        command.start()
        blocked = False
        while command.is_alive() and not blocked:
            command.join(0.05)
            blocked = _blocked_backends(pool, holder_pid) > 0
    command.join()  # the other writer has committed: a blocked command goes on
    assert not blocked, "the command waited for the other snapshot writer"
    assert done == [200]
    assert svc.matches.events.version(stream_of(match_id)) > before.version
    kept = svc.matches.events.load_snapshot(stream_of(match_id))
    assert kept is not None and kept[0] == before.version  # skipped, not waited for: the next one takes it

    bob.command(match_id, {"type": "mulligan", "cards": []})
    latest = svc.matches.load(match_id)
    kept = svc.matches.events.load_snapshot(stream_of(match_id))
    assert latest is not None and kept is not None and kept[0] == latest.version
    assert domain.restore_match(kept[1]["state"]) == latest
