"""make bench-economy: pack openings and wallet reads over HTTP, and MatchEnded -> coins credited.

Starts the product as ``make run`` does (gunicorn with every service, Celery, relays, consumers) on
a throwaway embedded PostgreSQL and dev broker. Players register over HTTP (accounts), economy's
consumer opens their wallets, an operator grant gives them coins. Then, for 1 and 16 concurrent
clients (one player each, a lean keep-alive connection each, no think time), for ``BENCH_SECONDS``:
``POST /v1/packs`` per second, ``GET /v1/wallet`` per second, and the same clients' ``/healthz``
rate; each as a ratio of that rate. Last, ``MatchEnded`` events are appended to the match
service's event store as the match service does (casual, 7 turns, two new players each): the
match relay publishes them and economy's consumer pays both players. Printed: credited events/s
for a burst of ``BENCH_MATCHES`` events, and the lag p50/p99 at a steady 20 events/s, measured
from the MatchEnded's commit to the credit's commit (both ``recorded_at``, one database clock).
"""

from __future__ import annotations

import os
import shutil
import statistics
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import psycopg

from bench._stack import database
from harness.client import Client
from harness.stack import OPERATOR_TOKEN, Stack
from libs.db import make_pool
from libs.devstack.broker import DevBroker
from libs.devstack.ports import free_port
from libs.eventstore import EventStore, Expect, NewEvent

SECONDS = float(os.environ.get("BENCH_SECONDS", "10"))
CLIENTS = [int(n) for n in os.environ.get("BENCH_ECONOMY_N", "1,16").split(",")]
MATCHES = int(os.environ.get("BENCH_MATCHES", "1000"))
STEADY_RATE = 20.0


def _wait(probe: Any, timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = probe()
        if found:
            return found
        time.sleep(0.2)
    raise RuntimeError(f"timed out waiting for {what}")


def _players(stack: Stack, n: int) -> list[Client]:
    """``n`` registered players with wallets, each granted enough coins for the benchmark."""
    http, operator, clients = Client(stack.url), Client(stack.url, OPERATOR_TOKEN), []
    for i in range(n):
        name = f"bench_{uuid.uuid4().hex[:10]}_{i}"
        made = http.post("/v1/accounts", {"username": name, "password": "bench password 1"})
        assert made.status == 201, made.body
        player = made.json()["player_id"]
        client = Client(stack.url, stack.token(player))
        _wait(lambda c=client: c.get("/v1/wallet").status == 200, 60, "the wallet opened by the consumer")
        grant = {"player_id": player, "coins": 1_000_000, "reason": "benchmark"}
        assert operator.post("/v1/admin/grants", grant).status == 201
        clients.append(client)
    http.close()
    operator.close()
    return clients


def _hammer(clients: list[Client], call: Any, seconds: float) -> tuple[float, list[float], int]:
    """Each client repeats ``call(client)`` for ``seconds``: (successes/s, latencies ms, failures)."""
    latencies: list[list[float]] = [[] for _ in clients]
    failures = [0] * len(clients)
    deadline = time.monotonic() + seconds

    def run(i: int) -> None:
        while time.monotonic() < deadline:
            started = time.perf_counter()
            ok = call(clients[i])
            if ok:
                latencies[i].append((time.perf_counter() - started) * 1000)
            else:
                failures[i] += 1

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(clients))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    flat = [x for row in latencies for x in row]
    return len(flat) / seconds, flat, sum(failures)


def _pct(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else float("nan")


def _http_phase(stack: Stack, players: list[Client]) -> list[dict[str, Any]]:
    rows = []
    for n in CLIENTS:
        group = players[:n]
        packs = _hammer(group, lambda c: c.post("/v1/packs", {}).status == 201, SECONDS)
        reads = _hammer(group, lambda c: c.get("/v1/wallet").status == 200, SECONDS)
        plain = [Client(stack.url) for _ in group]
        health = _hammer(plain, lambda c: c.get("/healthz").status == 200, SECONDS)
        for c in plain:
            c.close()
        rows.append({"n": n, "packs": packs, "reads": reads, "health": health[0]})
    return rows


def _match_ended(store: EventStore) -> str:
    match_id = str(uuid.uuid4())
    a, b = str(uuid.uuid4()), str(uuid.uuid4())
    data = {
        "winner": a,
        "reason": "hero_killed",
        "match_id": match_id,
        "mode": "casual",
        "players": [a, b],
        "loser": b,
        "draw": False,
        "turns": 7,
        "round": 4,
        "bot": None,
        "stats": {},
    }
    store.append(f"match-{match_id}", Expect.ANY, [NewEvent("MatchEnded", data)])
    return match_id


def _lags(url: str, match_ids: list[str]) -> list[tuple[float, float, float]]:
    """Per credited match: (match commit, last credit commit, lag seconds) as epoch seconds."""
    query = """
        SELECT extract(epoch FROM m.recorded_at), extract(epoch FROM max(e.recorded_at)), count(*)
        FROM match.events m JOIN economy.events e
          ON e.type = 'WalletCredited' AND e.data->>'note' = m.data->>'match_id'
        WHERE m.type = 'MatchEnded' AND m.data->>'match_id' = ANY(%s)
        GROUP BY m.recorded_at, m.data->>'match_id' HAVING count(*) = 2
    """
    with psycopg.connect(url) as conn:
        rows = conn.execute(query, (match_ids,)).fetchall()
    return [(float(m), float(e), float(e) - float(m)) for m, e, _ in rows]


def _consumer_phase(stack: Stack) -> dict[str, float]:
    pool = make_pool(stack.database_url, min_size=1, max_size=2, name="bench-economy")
    store = EventStore(pool, "match")
    try:
        warm = [_match_ended(store)]
        _wait(lambda: len(_lags(stack.database_url, warm)) == 1, 90, "the first MatchEnded credited")
        steady: list[str] = []
        for _ in range(int(SECONDS * STEADY_RATE)):
            steady.append(_match_ended(store))
            time.sleep(1 / STEADY_RATE)
        _wait(lambda: len(_lags(stack.database_url, steady)) == len(steady), 120, "steady credits")
        lags = [lag * 1000 for _, _, lag in _lags(stack.database_url, steady)]
        burst = [_match_ended(store) for _ in range(MATCHES)]
        done = _wait(
            lambda: (found := _lags(stack.database_url, burst)) and len(found) == len(burst) and found,
            600,
            "the burst credited",
        )
    finally:
        pool.close()
    first = min(m for m, _, _ in done)
    last = max(e for _, e, _ in done)
    return {"lag_p50": _pct(lags, 50), "lag_p99": _pct(lags, 99), "burst_s": len(burst) / (last - first)}


def main() -> None:
    root = Path(tempfile.mkdtemp(prefix="arcana-bench-economy-"))
    broker = DevBroker(free_port(), root / "broker.log")
    try:
        with database() as url:
            bootstrap = broker.start()
            # Every bench player registers from this one address: lift the per-address limit.
            with Stack(
                url, bootstrap, root / "stack", env={"ARCANA_REGISTER_MAX_PER_ADDRESS": "1000"}
            ) as stack:
                stack.wait_ready()
                players = _players(stack, max(CLIENTS))
                rows = _http_phase(stack, players)
                consumer = _consumer_phase(stack)
    finally:
        broker.stop()
        shutil.rmtree(root, ignore_errors=True)
    print(f"bench-economy ({SECONDS:.0f} s per phase, {os.cpu_count()} cores; server and clients share them)")
    print(
        "  clients   packs/s  p50 ms  p99 ms  packs/healthz   reads/s  p50 ms  p99 ms"
        "  reads/healthz  healthz/s"
    )
    for r in rows:
        (ps, pl, pf), (rs, rl, rf) = r["packs"], r["reads"]
        print(
            f"  {r['n']:>7} {ps:>9,.1f} {_pct(pl, 50):>7.1f} {_pct(pl, 99):>7.1f} {ps / r['health']:>14.3f}"
            f" {rs:>9,.1f} {_pct(rl, 50):>7.1f} {_pct(rl, 99):>7.1f} {rs / r['health']:>14.3f}"
            f" {r['health']:>10,.0f}" + (f"   ({pf + rf} refused)" if pf + rf else "")
        )
    print(
        f"  MatchEnded -> coins: {consumer['burst_s']:,.1f} events/s credited (burst of {MATCHES}, 2 credits "
        f"each); lag at {STEADY_RATE:.0f}/s: p50 {consumer['lag_p50']:.0f} ms, "
        f"p99 {consumer['lag_p99']:.0f} ms"
    )


if __name__ == "__main__":
    main()
