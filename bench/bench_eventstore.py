"""make bench-eventstore: the event store against raw INSERTs of the same rows, on one database.

Prints single-event appends/s with 1 and 8 writers, 10-event appends/s, raw INSERT rows/s with
the same writer counts (the physical reference), their ratios, and replay throughput (events read
from PostgreSQL and folded per second). Writers are processes, one connection each.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import time
import uuid
from datetime import UTC, datetime

import psycopg
from psycopg import sql

from bench._stack import database
from libs.db import make_pool, migrate
from libs.eventstore import EventStore, NewEvent

SECONDS = float(os.environ.get("BENCH_SECONDS", "3"))
SCHEMA = "bench_es"


def _event(i: int) -> NewEvent:
    return NewEvent("CardPlayed", {"card": "wolf_pup", "position": i % 6, "player_id": "p1", "turn": i})


def _append_worker(url: str, writer: int, batch: int, seconds: float, out: mp.Queue) -> None:
    pool = make_pool(url, min_size=1, max_size=1)
    store = EventStore(pool, SCHEMA)
    stream, version, appends = f"bench-{batch}-{writer}-{uuid.uuid4().hex[:6]}", 0, 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        store.append(stream, version, [_event(version + k) for k in range(batch)])
        version += batch
        appends += 1
    pool.close()
    out.put(appends)


def _raw_worker(url: str, writer: int, batch: int, seconds: float, out: mp.Queue) -> None:
    """The same rows with plain INSERTs in autocommit: no version check, no lock, no pool."""
    table = sql.Identifier(SCHEMA, "raw_events")
    query = sql.SQL(
        "INSERT INTO {} (position, event_id, stream, version, type, schema_version, occurred_at, data) "
        "VALUES (nextval('bench_es.raw_position'), %s, %s, %s, %s, 1, %s, %s::jsonb)"
    ).format(table)
    stream, version, inserts = f"raw-{writer}-{uuid.uuid4().hex[:6]}", 0, 0
    deadline = time.perf_counter() + seconds
    with psycopg.connect(url, autocommit=True) as conn:
        while time.perf_counter() < deadline:
            event = _event(version)
            version += 1
            conn.execute(
                query,
                (event.event_id, stream, version, event.type, datetime.now(UTC), json.dumps(event.data)),
            )
            inserts += 1
    out.put(inserts)


def _run(target, url: str, writers: int, batch: int) -> float:
    out: mp.Queue = mp.Queue()
    procs = [mp.Process(target=target, args=(url, w, batch, SECONDS, out)) for w in range(writers)]
    for p in procs:
        p.start()
    total = sum(out.get() for _ in procs)
    for p in procs:
        p.join()
    return total / SECONDS


def _prepare_raw(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE SEQUENCE IF NOT EXISTS bench_es.raw_position")
        conn.execute("CREATE TABLE IF NOT EXISTS bench_es.raw_events (LIKE bench_es.events INCLUDING ALL)")
        conn.execute("ALTER TABLE bench_es.raw_events DROP CONSTRAINT IF EXISTS raw_events_event_id_key")


def _replay(url: str) -> tuple[int, float]:
    pool = make_pool(url, min_size=1, max_size=1)
    store = EventStore(pool, SCHEMA)
    started = time.perf_counter()
    count, state = 0, {}
    for event in store.iter_all(0, batch=10_000):
        per_stream = state.setdefault(event.stream, {"version": 0, "cards": 0})
        per_stream["version"] = event.version
        per_stream["cards"] += 1 if event.type == "CardPlayed" else 0
        count += 1
    elapsed = time.perf_counter() - started
    pool.close()
    return count, count / elapsed


def _best(url: str, rounds: int, phases: dict[str, tuple]) -> dict[str, float]:
    """Run the phases interleaved, ``rounds`` times, keeping each phase's best rate.

    Interleaving puts the event store and the raw INSERTs under the same background load.
    """
    best: dict[str, float] = dict.fromkeys(phases, 0.0)
    for _ in range(rounds):
        for name, (target, writers, batch) in phases.items():
            best[name] = max(best[name], _run(target, url, writers, batch))
    return best


def main() -> None:
    rounds = int(os.environ.get("BENCH_ROUNDS", "3"))
    with database() as url:
        migrate(url, SCHEMA)
        _prepare_raw(url)
        rates = _best(
            url,
            rounds,
            {
                "single_1": (_append_worker, 1, 1),
                "raw_1": (_raw_worker, 1, 1),
                "single_8": (_append_worker, 8, 1),
                "raw_8": (_raw_worker, 8, 1),
                "batch_8": (_append_worker, 8, 10),
            },
        )
        events, replay_rate = _replay(url)
    single_1, single_8, batch_8 = rates["single_1"], rates["single_8"], rates["batch_8"]
    raw_1, raw_8 = rates["raw_1"], rates["raw_8"]
    rows = [
        ("single-event appends/s, 1 writer", single_1, f"{single_1 / raw_1:.0%} of raw INSERT (1 writer)"),
        ("single-event appends/s, 8 writers", single_8, f"{single_8 / raw_8:.0%} of raw INSERT (8 writers)"),
        ("10-event appends/s, 8 writers", batch_8, f"= {batch_8 * 10:,.0f} events/s"),
        ("raw INSERT rows/s, 1 writer", raw_1, "physical reference"),
        ("raw INSERT rows/s, 8 writers", raw_8, "physical reference"),
        (f"replay events/s (read + fold, {events:,} events)", replay_rate, "target >= 50,000"),
    ]
    print(
        f"bench-eventstore (best of {rounds} interleaved rounds, {SECONDS:.0f} s per phase, "
        f"{os.cpu_count()} cores)"
    )
    for name, value, note in rows:
        print(f"  {name:<48} {value:>12,.0f}   {note}")
    print(f"  appends vs raw INSERT with 8 writers: {single_8 / raw_8:.2f} (target >= 0.50)")
    print(f"  replay vs target: {replay_rate / 50_000:.2f}x (target >= 1.00)")


if __name__ == "__main__":
    main()
