"""make bench-match: concurrent bot-vs-bot matches played over HTTP against the running service.

Starts the product as ``make run`` does (gunicorn with every service, Celery, relays, consumers)
on a throwaway embedded PostgreSQL and dev broker, then for N = 10, 50, 100 (``BENCH_MATCH_N``):
N client threads each play bot-vs-bot matches over HTTP (both players, random legal commands,
new matches as old ones end, no think time) for ``BENCH_SECONDS``, over the lean keep-alive
client of ``harness/client.py``; a client uses the legal commands and ``awaiting`` a POST answers
with and asks for legal commands only when the move passes to the other player. Printed:
commands/s, p50/p99 latency of command POSTs and of all match requests, and the same client's
/healthz requests/s at the same concurrency on the same server (the framework's ceiling), with
the ratios.
"""

from __future__ import annotations

import http.client
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
from typing import Any

from bench._stack import database
from harness import cpu
from harness.client import Client, Reply
from harness.stack import OPERATOR_TOKEN, Stack
from libs.devstack.broker import DevBroker
from libs.devstack.ports import free_port
from libs.games.arcana import STARTER_DECK

SECONDS = float(os.environ.get("BENCH_SECONDS", "20"))
SIZES = [int(n) for n in os.environ.get("BENCH_MATCH_N", "10,50,100").split(",")]


@dataclass
class Tally:
    command_ms: list[float] = field(default_factory=list)
    request_ms: list[float] = field(default_factory=list)
    matches_finished: int = 0
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def _timed(tally: Tally, call: Any, *args: Any, command: bool = False) -> Reply:
    started = time.perf_counter()
    reply = call(*args)
    elapsed = (time.perf_counter() - started) * 1000
    with tally.lock:
        tally.request_ms.append(elapsed)
        if command:
            tally.command_ms.append(elapsed)
        if reply.status >= 500:
            tally.errors += 1
            if len(tally.error_samples) < 3:
                tally.error_samples.append(f"{reply.status} {reply.body[:300]!r}")
    return reply


def _play_one(stack: Stack, operator: Client, tally: Tally, deadline: float, rng: random.Random) -> None:
    players = [str(uuid.uuid4()), str(uuid.uuid4())]
    setup = {"players": [{"id": p, "deck": list(STARTER_DECK)} for p in players]}
    created = operator.post("/v1/admin/matches", {"setup": setup})
    if created.status != 201:
        raise RuntimeError(f"creating a match: {created.status} {created.body[:200]!r}")
    match = created.json()["match_id"]
    clients = {p: Client(stack.url, stack.token(p)) for p in players}
    base = f"/v1/matches/{match}"
    # What each player may do next as the server last said (None: ask). A POST answers with the
    # caller's next legal commands and with whom the match awaits, so a client asks only when
    # the move passes to the other player, as a real client would after its long poll.
    known: dict[str, list[dict] | None] = dict.fromkeys(players)
    version = created.json()["version"]
    try:
        while time.monotonic() < deadline:
            acted = False
            for player in players:
                if known[player] is None:
                    legal = _timed(tally, clients[player].get, f"{base}/legal-commands")
                    if legal.status != 200:
                        return
                    body = legal.json()
                    version, known[player] = body["version"], body["commands"]
                if not known[player]:
                    continue
                choice = _pick(known[player], rng)
                sent = _timed(
                    tally,
                    clients[player].post,
                    f"{base}/commands",
                    {**choice, "expected_version": version},
                    command=True,
                )
                acted = True
                if sent.status != 200:  # stale or refused: ask both again
                    known = dict.fromkeys(players)
                    continue
                body = sent.json()
                version = body["version"]
                if not body["awaiting"]:
                    with tally.lock:
                        tally.matches_finished += 1
                    return
                for p in players:
                    known[p] = None if p in body["awaiting"] else []
                known[player] = body["legal_commands"] if player in body["awaiting"] else []
            if not acted:  # nobody could act as far as we knew: ask both again
                known = dict.fromkeys(players)
    finally:
        for c in clients.values():
            c.close()


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
    operator = Client(stack.url, OPERATOR_TOKEN)
    while time.monotonic() < deadline:
        try:
            _play_one(stack, operator, tally, deadline, rng)
        except (OSError, http.client.HTTPException) as exc:
            with tally.lock:
                tally.errors += 1
                if len(tally.error_samples) < 3:
                    tally.error_samples.append(repr(exc))
    operator.close()


def _healthz(stack: Stack, threads: int, seconds: float) -> float:
    count = [0] * threads
    deadline = time.monotonic() + seconds

    def hammer(i: int) -> None:
        client = Client(stack.url)
        while time.monotonic() < deadline:
            client.get("/healthz")
            count[i] += 1
        client.close()

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


def _run_size(stack: Stack, n: int, mine: cpu.StackProcesses) -> dict[str, float]:
    tally = Tally()
    deadline = time.monotonic() + SECONDS
    workers = [threading.Thread(target=_client, args=(stack, tally, deadline, i)) for i in range(n)]
    before = mine.snapshot()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    used = cpu.spent(before, mine.snapshot())
    for sample in tally.error_samples:
        print(f"  N = {n}: error {sample}")
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
        "cpu": used,
    }


def main() -> None:
    root = Path(tempfile.mkdtemp(prefix="arcana-bench-match-"))
    broker = DevBroker(free_port(), root / "broker.log")
    try:
        with database() as url:
            bootstrap = broker.start()
            with Stack(url, bootstrap, root / "stack") as stack:
                stack.wait_ready()
                roots = [broker.process.pid] if broker.process else []
                mine = cpu.StackProcesses(stack, roots + cpu.postmasters(url))
                results = [_run_size(stack, n, mine) for n in SIZES]
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
    print("  CPU per command, ms (this stack's processes only; generator = this benchmark):")
    print("  " + " ".join(f"{name:>9}" for name in ("N", *cpu.PARTS, "total")))
    for r in results:
        per = {part: r["cpu"][part] * 1000 / max(r["commands_s"] * SECONDS, 1) for part in cpu.PARTS}
        cells = [f"{per[part]:>9.2f}" for part in cpu.PARTS]
        print(f"  {r['n']:>9} " + " ".join(cells) + f" {sum(per.values()):>9.2f}")
    print("  target at N = 50: command p99 < 100 ms and >= 30 % of the /healthz rate")


if __name__ == "__main__":
    main()
