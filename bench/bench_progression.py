"""make bench-progression: MatchEnded -> quest progress and pass XP applied, through the real path.

Match events are appended to a match event store, published by the outbox relay to the Kafka-protocol
dev broker and applied by progression's subscription (the idempotent consumer, one process, one
thread, as ``python -m libs.kit.consume progression`` runs it). Prints:

- throughput: a burst of BENCH_EVENTS MatchEnded (default 1000, 200 players) appended at once, events/s
  from the first append to the last one applied;
- lag: BENCH_PACED events (default 300) appended at BENCH_RATE/s (default 50), p50/p99/max of the time
  from the match event's commit to the commit of progression's read-model transaction.
Uses BENCH_DATABASE_URL when set, else a throwaway embedded PostgreSQL; always a fresh dev broker.
"""

from __future__ import annotations

import os
import random
import shutil
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from bench._stack import database
from libs.bus import ConsumerRunner, OutboxRelay, topic_for
from libs.db import make_pool, migrate
from libs.devstack.broker import DevBroker
from libs.devstack.ports import free_port
from libs.eventstore import EventStore, Expect, NewEvent, RecordedEvent
from libs.kit import definition
from libs.kit.consume import handler_for
from services.progression.service import ProgressionService

BURST = int(os.environ.get("BENCH_EVENTS", "1000"))
PACED = int(os.environ.get("BENCH_PACED", "300"))
RATE = float(os.environ.get("BENCH_RATE", "50"))
PLAYERS = int(os.environ.get("BENCH_PLAYERS", "200"))
MIGRATIONS = Path(__file__).resolve().parent.parent / "services" / "progression" / "migrations"
TRIBES = ("beast", "wild", "giant", "order", "none")


class TimedRunner(ConsumerRunner):
    """The consumer, noting when each event's transaction has committed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.done_at: dict[uuid.UUID, float] = {}

    def apply(self, event: RecordedEvent, topic: str = "", partition: int = -1, offset: int = -1) -> bool:
        fresh = super().apply(event, topic, partition, offset)
        self.done_at[event.event_id] = time.time()
        return fresh


def _stats(rng: random.Random) -> dict[str, Any]:
    return {
        "units_played": {t: rng.randint(0, 4) for t in TRIBES},
        "spells_cast": rng.randint(0, 6),
        "hero_damage": rng.randint(5, 30),
        "cards_drawn": rng.randint(8, 20),
        "units_killed": rng.randint(0, 8),
        "turns": rng.randint(3, 10),
    }


def _match_ended(rng: random.Random, players: list[str]) -> NewEvent:
    a, b = rng.sample(players, 2)
    winner = rng.choice((a, b))
    match_id = str(uuid.uuid4())
    data = {
        "winner": winner,
        "reason": "hero_killed",
        "match_id": match_id,
        "mode": rng.choice(("ranked", "casual")),
        "players": [a, b],
        "loser": b if winner == a else a,
        "draw": False,
        "turns": rng.randint(4, 20),
        "round": 5,
        "bot": None,
        "stats": {a: _stats(rng), b: _stats(rng)},
    }
    return NewEvent("MatchEnded", data)


def _append(store: EventStore, event: NewEvent, committed: dict[uuid.UUID, float]) -> None:
    store.append(f"match-{event.data['match_id']}", Expect.NO_STREAM, [event])  # autocommit
    committed[event.event_id] = time.time()


def _wait_applied(runner: TimedRunner, ids: list[uuid.UUID], timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while not all(i in runner.done_at for i in ids):
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out: {sum(i in runner.done_at for i in ids)}/{len(ids)} applied")
        time.sleep(0.01)


def _run(url: str, bootstrap: str) -> None:
    migrate(url, "bench_match")
    migrate(url, "bench_progression", [MIGRATIONS])
    pool = make_pool(url, min_size=2, max_size=6)
    store = EventStore(pool, "bench_match")
    svc = ProgressionService(pool, "bench_progression")
    [sub, _sessions] = definition("progression").subscriptions  # and the kit's
    topic_service = f"benchm{uuid.uuid4().hex[:6]}"
    runner = TimedRunner(
        pool,
        svc.schema,
        f"{topic_service}-prog",
        [topic_for(topic_service)],
        handler_for(sub, svc),
        bootstrap,
    )
    relay = OutboxRelay(store, topic_service, bootstrap)
    rng = random.Random(42)
    players = [str(uuid.uuid4()) for _ in range(PLAYERS)]
    committed: dict[uuid.UUID, float] = {}
    relay.start()
    runner.start()
    try:
        warm = [_match_ended(rng, players) for _ in range(5)]
        for e in warm:
            _append(store, e, committed)
        _wait_applied(runner, [e.event_id for e in warm], timeout=120)

        burst = [_match_ended(rng, players) for _ in range(BURST)]
        start = time.time()
        for e in burst:
            _append(store, e, committed)
        appended = time.time()
        _wait_applied(runner, [e.event_id for e in burst])
        finished = max(runner.done_at[e.event_id] for e in burst)
        print(
            f"burst: {BURST} MatchEnded appended in {appended - start:.2f} s, all applied after "
            f"{finished - start:.2f} s: {BURST / (finished - start):.0f} events/s through the consumer"
        )

        paced = [_match_ended(rng, players) for _ in range(PACED)]
        begin = time.time()
        for i, e in enumerate(paced):
            time.sleep(max(0.0, begin + i / RATE - time.time()))
            _append(store, e, committed)
        _wait_applied(runner, [e.event_id for e in paced])
        lags = sorted((runner.done_at[e.event_id] - committed[e.event_id]) * 1000 for e in paced)
        p50, p99 = statistics.median(lags), lags[min(len(lags) - 1, int(len(lags) * 0.99))]
        print(
            f"lag at {RATE:.0f} events/s ({PACED} events), match commit -> read model commit: "
            f"p50 {p50:.0f} ms, p99 {p99:.0f} ms, max {lags[-1]:.0f} ms"
        )
        per_event = _handler_cost(svc, rng, players)
        print(
            f"handler alone (no Kafka, one transaction per event): {1000 / per_event:.0f} events/s "
            f"({per_event:.2f} ms each)"
        )
    finally:
        relay.stop()
        runner.stop()
        pool.close()


def _handler_cost(svc: ProgressionService, rng: random.Random, players: list[str]) -> float:
    """Milliseconds per MatchEnded applied by the handler in its own transaction (the CPU+DB part)."""
    from datetime import UTC, datetime

    [sub, _sessions] = definition("progression").subscriptions  # and the kit's
    handle = handler_for(sub, svc)
    events = [_match_ended(rng, players) for _ in range(300)]
    start = time.perf_counter()
    for i, e in enumerate(events):
        recorded = RecordedEvent(
            e.event_id, f"match-{i}", 1, i + 1, e.type, 1, datetime.now(UTC), None, None, e.data
        )
        with svc.pool.connection() as conn, conn.transaction():
            handle(recorded, conn)
    return (time.perf_counter() - start) * 1000 / len(events)


def main() -> None:
    root = Path(tempfile.mkdtemp(prefix="arcana-bench-broker-"))
    broker = DevBroker(free_port(), root / "broker.log")
    try:
        bootstrap = broker.start()
        with database() as url:
            _run(url, bootstrap)
    finally:
        broker.stop()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
