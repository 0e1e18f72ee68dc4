"""make bench-relay: how fast the outbox relay publishes a whole log to an empty broker.

Appends ``BENCH_RELAY_EVENTS`` events (default 100,000, match-sized JSON, spread over 1,000
streams) to a throwaway schema, then times two things against the Tansu dev broker:

- the first publish of the whole log to a broker that has never seen it;
- the republish after that broker is replaced by a new, empty one on the same address (what a
  restart of the dev broker or a replaced cluster causes): the relay notices the new cluster id
  and publishes everything again from the first event.

Each prints events/s and the relay's CPU per event (this process's CPU time during the phase:
the relay runs here in a thread, PostgreSQL and the broker are other processes). The target is
>= 20,000 events/s for the republish. Runs against BENCH_DATABASE_URL when set, else a throwaway
embedded PostgreSQL; the broker is always a throwaway dev broker on a free loopback port.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from bench._stack import database
from libs.bus import OutboxRelay
from libs.db import make_pool, migrate
from libs.devstack.broker import DevBroker
from libs.devstack.ports import free_port
from libs.eventstore import EventStore, Expect, NewEvent

EVENTS = int(os.environ.get("BENCH_RELAY_EVENTS", "100000"))
STREAMS = 1000
EVENTS_PER_APPEND = 50
SCHEMA = "bench_relay"
TARGET = 20_000


def _event(i: int) -> NewEvent:
    """About the size of a match event: a card played with the resulting board."""
    return NewEvent(
        "CardPlayed",
        {
            "player_id": "5b0c7d0e-3f43-4d0b-9a4e-1f6f0b8c2d11",
            "card": f"c{i % 40}",
            "position": i % 6,
            "turn": i // 100,
            "mana_left": i % 10,
            "board": [{"card": f"c{k}", "attack": k % 5, "health": 1 + k % 4} for k in range(i % 6)],
        },
    )


def _append_log(store: EventStore, count: int) -> int:
    """Append ``count`` events in appends of EVENTS_PER_APPEND to STREAMS streams; the head position."""
    appended, i = 0, 0
    while appended < count:
        size = min(EVENTS_PER_APPEND, count - appended)
        stream = f"match-{i % STREAMS}"
        store.append(stream, Expect.ANY, [_event(appended + k) for k in range(size)])
        appended += size
        i += 1
    return store.head_position()


def _time_publish(relay: OutboxRelay, head: int, cluster_id: str) -> tuple[float, float]:
    """Run ``relay`` until its progress reaches ``head`` on ``cluster_id``: (seconds, CPU seconds)."""
    cpu0, t0 = time.process_time(), time.perf_counter()
    relay.start()
    while relay.progress() != (head, cluster_id):
        time.sleep(0.02)
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    relay.stop()
    return elapsed, cpu


def _report(label: str, events: int, seconds: float, cpu: float) -> float:
    rate = events / seconds
    print(
        f"  {label:<34} {events:>9,} events in {seconds:6.2f} s  {rate:>9,.0f} events/s  "
        f"relay CPU {cpu / events * 1e6:5.1f} us/event"
    )
    return rate


def main() -> None:
    root = Path(tempfile.mkdtemp(prefix="arcana-bench-relay-"))
    with database() as url:
        migrate(url, SCHEMA)
        pool = make_pool(url, min_size=1, max_size=4)
        store = EventStore(pool, SCHEMA)
        t0 = time.perf_counter()
        head = _append_log(store, EVENTS)
        print(f"bench-relay: {EVENTS:,} events appended in {time.perf_counter() - t0:.1f} s (head {head})")
        port = free_port()
        first = DevBroker(port, root / "broker.log")
        first.start()
        relay = OutboxRelay(store, "benchrelay", first.bootstrap)
        try:
            seconds, cpu = _time_publish(relay, head, str(first.cluster_id))
            _report("first publish to an empty broker", EVENTS, seconds, cpu)
            first.stop()
            second = DevBroker(port, root / "broker.log")
            second.start()
            try:
                seconds, cpu = _time_publish(relay, head, str(second.cluster_id))
                rate = _report("republish after a broker change", EVENTS, seconds, cpu)
            finally:
                second.stop()
        finally:
            first.stop()
            pool.close()
        print(f"  republish: {rate / TARGET:.2f}x the {TARGET:,} events/s target")


if __name__ == "__main__":
    main()
