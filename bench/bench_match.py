"""make bench-match: concurrent bot-vs-bot matches played over HTTP against the running service.

Starts the product as ``make run`` does (gunicorn with every service, Celery, relays, consumers)
on a throwaway embedded PostgreSQL and dev broker, then for N = 10, 50, 100 (``BENCH_MATCH_N``):
N client threads each play bot-vs-bot matches over HTTP (both players, random legal commands,
new matches as old ones end, no think time) for ``BENCH_SECONDS``; a client uses the legal
commands a POST answers with and asks for them only when it does not know them. Printed:
commands/s, p50/p99 latency of command POSTs and of all match requests, and the same client's
/healthz requests/s at the same concurrency on the same server (the framework's ceiling), with
the ratios.
"""

from __future__ import annotations

import os
import random
import shutil
import statistics
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import requests
from requests.adapters import HTTPAdapter

from bench._stack import database
from libs.devstack.broker import DevBroker
from libs.devstack.ports import free_port
from libs.rules import STARTER_DECK
from tests.e2e.stack import Stack

SECONDS = float(os.environ.get("BENCH_SECONDS", "20"))
SIZES = [int(n) for n in os.environ.get("BENCH_MATCH_N", "10,50,100").split(",")]


@dataclass
class Tally:
    command_ms: list[float] = field(default_factory=list)
    request_ms: list[float] = field(default_factory=list)
    matches_finished: int = 0
    errors: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def _session(stack: Stack, player: str, pool: int) -> requests.Session:
    s = stack.session(player)
    s.mount("http://", HTTPAdapter(pool_connections=1, pool_maxsize=pool))
    return s


def _timed(tally: Tally, call, *args, command: bool = False, **kwargs) -> requests.Response:
    started = time.perf_counter()
    response = call(*args, timeout=30, **kwargs)
    elapsed = (time.perf_counter() - started) * 1000
    with tally.lock:
        tally.request_ms.append(elapsed)
        if command:
            tally.command_ms.append(elapsed)
        if response.status_code >= 500:
            tally.errors += 1
    return response


def _play_one(
    stack: Stack, operator: requests.Session, tally: Tally, deadline: float, rng: random.Random
) -> None:
    players = [str(uuid.uuid4()), str(uuid.uuid4())]
    setup = {"players": [{"id": p, "deck": list(STARTER_DECK)} for p in players]}
    created = operator.post(
        f"{stack.url}/v1/admin/matches", json={"mode": "casual", "setup": setup}, timeout=30
    )
    created.raise_for_status()
    match = created.json()["match_id"]
    sessions = {p: _session(stack, p, 2) for p in players}
    base = f"{stack.url}/v1/matches/{match}"
    # What each player may do next, as the server last said (None: ask). A POST answers with the
    # caller's next legal commands, so a client only asks again for the other player.
    known: dict[str, list[dict] | None] = dict.fromkeys(players)
    version = created.json()["version"]
    while time.monotonic() < deadline:
        acted = False
        for player in players:
            if known[player] is None:
                legal = _timed(tally, sessions[player].get, f"{base}/legal-commands")
                if legal.status_code != 200:
                    return
                version, known[player] = legal.json()["version"], legal.json()["commands"]
            if not known[player]:
                continue
            choice = _pick(known[player], rng)
            sent = _timed(
                tally,
                sessions[player].post,
                f"{base}/commands",
                json={**choice, "expected_version": version},
                command=True,
            )
            known = dict.fromkeys(players)
            if sent.status_code == 200:
                version, known[player] = sent.json()["version"], sent.json()["legal_commands"]
            acted = True
        if not acted:
            view = _timed(tally, sessions[players[0]].get, base).json()
            if view.get("phase") == "ended":
                with tally.lock:
                    tally.matches_finished += 1
                return


def _pick(commands: list[dict], rng: random.Random) -> dict:
    """A random bot: usually acts, sometimes ends the turn; always keeps its opening hand."""
    mulligans = [c for c in commands if c["type"] == "mulligan"]
    if mulligans:
        return next((c for c in mulligans if not c.get("cards")), mulligans[0])
    actions = [c for c in commands if c["type"] != "end_turn"]
    if actions and rng.random() < 0.8:
        return rng.choice(actions)
    return next((c for c in commands if c["type"] == "end_turn"), rng.choice(commands))


def _client(stack: Stack, tally: Tally, deadline: float, seed: int) -> None:
    rng = random.Random(seed)
    operator = stack.operator()
    while time.monotonic() < deadline:
        try:
            _play_one(stack, operator, tally, deadline, rng)
        except requests.RequestException:
            with tally.lock:
                tally.errors += 1


def _healthz(stack: Stack, threads: int, seconds: float) -> float:
    count = [0] * threads
    deadline = time.monotonic() + seconds

    def hammer(i: int) -> None:
        s = requests.Session()
        while time.monotonic() < deadline:
            s.get(f"{stack.url}/healthz", timeout=30)
            count[i] += 1

    workers = [threading.Thread(target=hammer, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return sum(count) / seconds


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def _run_size(stack: Stack, n: int) -> dict[str, float]:
    tally = Tally()
    deadline = time.monotonic() + SECONDS
    workers = [threading.Thread(target=_client, args=(stack, tally, deadline, i)) for i in range(n)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    health = _healthz(stack, n, min(SECONDS, 10))
    return {
        "n": n,
        "commands_s": len(tally.command_ms) / SECONDS,
        "requests_s": len(tally.request_ms) / SECONDS,
        "cmd_p50": _pct(tally.command_ms, 50),
        "cmd_p99": _pct(tally.command_ms, 99),
        "req_p99": _pct(tally.request_ms, 99),
        "healthz_s": health,
        "finished": tally.matches_finished,
        "errors": tally.errors,
    }


def main() -> None:
    root = Path(tempfile.mkdtemp(prefix="arcana-bench-match-"))
    broker = DevBroker(free_port(), root / "broker.log")
    try:
        with database() as url:
            bootstrap = broker.start()
            with Stack(url, bootstrap, root / "stack") as stack:
                stack.wait_ready()
                results = [_run_size(stack, n) for n in SIZES]
    finally:
        broker.stop()
        shutil.rmtree(root, ignore_errors=True)
    print(f"bench-match ({SECONDS:.0f} s per size, {os.cpu_count()} cores; server and clients share them)")
    columns = [
        ("N", 4),
        ("commands/s", 11),
        ("cmd p50 ms", 11),
        ("cmd p99 ms", 11),
        ("requests/s", 11),
        ("req p99 ms", 11),
        ("healthz/s", 10),
        ("cmd/healthz", 12),
        ("req/healthz", 12),
        ("matches", 8),
        ("5xx", 4),
    ]
    header = "  " + " ".join(f"{name:>{width}}" for name, width in columns)
    print(header)
    for r in results:
        print(
            f"  {r['n']:>4} {r['commands_s']:>11,.1f} {r['cmd_p50']:>11.1f} {r['cmd_p99']:>11.1f} "
            f"{r['requests_s']:>11,.1f} {r['req_p99']:>11.1f} {r['healthz_s']:>10,.0f} "
            f"{r['commands_s'] / r['healthz_s']:>12.2f} {r['requests_s'] / r['healthz_s']:>12.2f} "
            f"{r['finished']:>8} {r['errors']:>4}"
        )
    print("  target at N = 50: command p99 < 100 ms and >= 30 % of the /healthz rate")


if __name__ == "__main__":
    main()
