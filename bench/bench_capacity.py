"""make bench-capacity: M live matches of two real clients each, at human pace, over HTTP.

Starts the product as ``make run`` does on a throwaway embedded PostgreSQL, with a new database and
a new dev broker for each M (``BENCH_CAPACITY_M``, default 100,250,500,1000):

1. set-up (not measured): 2·M players register and log in over HTTP (accounts), and the operator
   endpoint makes M casual matches of two of them;
2. idle (``BENCH_IDLE_SECONDS``, default 25 s: one whole cycle of a long-poll, with its presence
   touches, its end and the next poll): every player keeps one long-poll open on ``/events``
   (``wait=25``) and nobody acts. Measured: the stack's CPU per connected player, the web processes'
   memory and threads per waiting long-poll (against the same server before the set-up);
3. playing (``BENCH_SECONDS``, default 60 s): each player, as a game client would, thinks 2-6 s
   (uniform, seeded) before each command it may make, and while the match does not wait for it
   keeps one long-poll open on ``/events`` (after its last known version, ``wait=25``); its answer
   says whether it is the player's move and with which legal commands. A pair whose match ends
   starts another. Measured (over the last ``SECONDS - WARMUP`` seconds): commands/s, command
   latency p50/p99 (the POST), event delivery latency p50/p99 (from the moment the command's
   response reached its sender to the moment the opponent's long-poll returned its events; one
   sample per command the opponent waited for), errors (5xx, transport errors, statuses no client
   should get), and the stack's CPU
   per connected player.

Every client is one thread with one keep-alive connection (``harness/client.py``), all in this process,
on the loopback address. Printed: one row per M and the largest M meeting command p99 < 100 ms and
delivery p99 < 200 ms.
"""

from __future__ import annotations

import contextlib
import http.client
import json
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

from bench import _cpu as cpu
from bench._stack import database
from bench.bench_match import _pick
from harness.client import Client
from harness.stack import OPERATOR_TOKEN, Stack
from libs.devstack.broker import DevBroker
from libs.devstack.ports import free_port
from libs.games.arcana import STARTER_DECK

SIZES = [int(n) for n in os.environ.get("BENCH_CAPACITY_M", "100,250,500,1000").split(",")]
SECONDS = float(os.environ.get("BENCH_SECONDS", "60"))
IDLE_SECONDS = float(os.environ.get("BENCH_IDLE_SECONDS", "25"))  # one whole long-poll cycle
WARMUP = min(15.0, SECONDS / 4)  # players start at random moments within their first think time
THINK = (2.0, 6.0)
WAIT = 25
SEED = int(os.environ.get("BENCH_SEED", "13"))
CMD_P99_MS, DELIVERY_P99_MS = 100.0, 200.0


@dataclass
class Tally:
    measure_from: float = 0.0
    command_ms: list[float] = field(default_factory=list)
    delivery_ms: list[float] = field(default_factory=list)
    errors: int = 0
    conflicts: int = 0
    samples: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def error(self, what: str) -> None:
        with self.lock:
            self.errors += 1
            if len(self.samples) < 5:
                self.samples.append(what[:300])


class Pair:
    """Two players and their current match; when it ends, the first player makes the next one."""

    def __init__(self, players: list[str], tokens: list[str]) -> None:
        self.players = players
        self.tokens = tokens
        self.match = ""
        self.version = 0
        self.cond = threading.Condition()
        # version -> when the command that produced it was answered (monotonic), for delivery
        self.answered: dict[int, float] = {}
        # version -> when the opponent's long-poll returned it, if that came before the answer
        self.delivered: dict[int, float] = {}


def _register(stack: Stack, count: int, tally: Tally) -> list[tuple[str, str]]:
    """``count`` players registered and logged in over HTTP: (player id, token)."""
    out: list[tuple[str, str] | None] = [None] * count
    next_index = iter(range(count))
    lock = threading.Lock()

    def work() -> None:
        http = Client(stack.url)
        while True:
            with lock:
                i = next(next_index, None)
            if i is None:
                break
            name, password = f"cap_{uuid.uuid4().hex[:12]}", "bench password 1"
            made = http.post("/v1/accounts", {"username": name, "password": password})
            logged = http.post("/v1/sessions", {"username": name, "password": password})
            if made.status != 201 or logged.status != 201:
                raise RuntimeError(f"register/log in: {made.status} {logged.status} {logged.body[:200]!r}")
            body = logged.json()
            out[i] = (body["player_id"], body["token"])
        http.close()

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(out), "some players were not registered"
    return [p for p in out if p is not None]


def _new_match(operator: Client, pair: Pair) -> None:
    setup = {"players": [{"id": p, "deck": list(STARTER_DECK)} for p in pair.players]}
    made = operator.post("/v1/admin/matches", {"setup": setup})
    if made.status != 201:
        raise RuntimeError(f"creating a match: {made.status} {made.body[:200]!r}")
    with pair.cond:
        pair.match, pair.version = made.json()["match_id"], made.json()["version"]
        pair.answered, pair.delivered = {}, {}
        pair.cond.notify_all()


def _idle_poll(stack: Stack, pair: Pair, side: int, stop: float, opened: threading.Semaphore) -> None:
    """Keep one long-poll open until ``stop`` (nobody acts, so each returns empty after its wait)."""
    client = Client(stack.url, pair.tokens[side], timeout=WAIT + 30)
    first = True
    while time.monotonic() < stop:
        wait = max(1, min(WAIT, int(stop - time.monotonic())))
        path = f"/v1/matches/{pair.match}/events?after={pair.version}&wait={wait}"
        if first:
            opened.release()
            first = False
        with contextlib.suppress(OSError, http.client.HTTPException):
            client.get(path)
    client.close()


def _player(stack: Stack, pair: Pair, side: int, tally: Tally, deadline: float, seed: int) -> None:
    rng = random.Random(seed)
    me = pair.players[side]
    client = Client(stack.url, pair.tokens[side], timeout=WAIT + 30)
    operator = Client(stack.url, OPERATOR_TOKEN) if side == 0 else None
    match = ""
    legal: list[dict[str, Any]] | None = None  # None: ask
    version = 0
    time.sleep(rng.uniform(0, THINK[1]))  # players arrive at different moments
    try:
        while time.monotonic() < deadline:
            with pair.cond:
                if pair.match != match:
                    match, version, legal = pair.match, pair.version, None
            base = f"/v1/matches/{match}"
            try:
                if legal is None:
                    reply = client.get(f"{base}/legal-commands")
                    if reply.status != 200:
                        tally.error(f"legal-commands {reply.status} {reply.body!r}")
                        time.sleep(1)
                        continue
                    body = reply.json()
                    version, legal = body["version"], body["commands"]
                    if not body["awaiting"]:  # ended
                        _next_match(pair, side, operator, match, deadline)
                        continue
                if legal:
                    time.sleep(rng.uniform(*THINK))
                    if time.monotonic() >= deadline:
                        break
                    command = {**_pick(legal, rng), "expected_version": version}
                    started = time.monotonic()
                    reply = client.post(f"{base}/commands", command)
                    answered = time.monotonic()
                    if reply.status == 409:  # a deadline or the opponent moved first
                        with tally.lock:
                            tally.conflicts += 1
                        legal = None
                        continue
                    if reply.status != 200:
                        tally.error(f"command {reply.status} {reply.body!r}")
                        legal = None
                        continue
                    body = reply.json()
                    version = body["version"]
                    with pair.cond:
                        pair.answered[version] = answered
                        early = pair.delivered.pop(version, None)
                    if started >= tally.measure_from:
                        with tally.lock:
                            tally.command_ms.append((answered - started) * 1000)
                            if early is not None:  # the opponent had it before this answer came
                                tally.delivery_ms.append(0.0)
                    if not body["awaiting"]:
                        _next_match(pair, side, operator, match, deadline)
                        continue
                    legal = body["legal_commands"] if me in body["awaiting"] else []
                    continue
                # Not my move: one long-poll, then what may I do now?
                wait = max(1, min(WAIT, int(deadline - time.monotonic())))
                reply = client.get(f"{base}/events?after={version}&wait={wait}")
                returned = time.monotonic()
                if reply.status != 200:
                    tally.error(f"events {reply.status} {reply.body!r}")
                    continue
                polled = reply.json()
                events = polled["events"]
                if events:
                    with pair.cond:
                        sent = []
                        for e in events:
                            at = pair.answered.get(e["version"])
                            if at is not None:
                                sent.append(at)
                            else:  # perhaps the last of a batch whose command is not answered yet
                                pair.delivered[e["version"]] = returned
                    if returned >= tally.measure_from:
                        with tally.lock:
                            tally.delivery_ms.extend(max(0.0, returned - at) * 1000 for at in sent)
                # The answer says whether it is my move now and what I may do: no other request.
                version = polled["version"]
                if not polled["awaiting"]:
                    _next_match(pair, side, operator, match, deadline)
                    continue
                legal = polled["legal_commands"] if me in polled["awaiting"] else []
            except (OSError, http.client.HTTPException) as exc:
                tally.error(repr(exc))
                legal = None
    finally:
        client.close()
        if operator is not None:
            operator.close()


def _next_match(pair: Pair, side: int, operator: Client | None, ended: str, deadline: float) -> None:
    if operator is not None:
        _new_match(operator, pair)
        return
    with pair.cond:
        pair.cond.wait_for(lambda: pair.match != ended, timeout=max(0.0, deadline - time.monotonic()))


def _pct(values: list[float], q: int) -> float:
    if len(values) < 2:
        return float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def _run(stack: Stack, m: int, mine: cpu.StackProcesses) -> dict[str, Any]:
    tally = Tally()
    before = mine.snapshot()  # the stack alone: beat sweeps, relays and consumers polling, PostgreSQL
    time.sleep(IDLE_SECONDS)
    base = cpu.spent(before, mine.snapshot())
    base_s = sum(v for k, v in base.items() if k != "client") / IDLE_SECONDS  # CPU seconds per second
    accounts = _register(stack, 2 * m, tally)
    pairs = [
        Pair([accounts[2 * i][0], accounts[2 * i + 1][0]], [accounts[2 * i][1], accounts[2 * i + 1][1]])
        for i in range(m)
    ]
    operator = Client(stack.url, OPERATOR_TOKEN)
    for pair in pairs:
        _new_match(operator, pair)
    operator.close()

    # Idle: every player waits on a long-poll; nobody acts.
    rss0, threads0 = mine.web_memory()
    stop = time.monotonic() + IDLE_SECONDS + 3
    opened = threading.Semaphore(0)
    idlers = [
        threading.Thread(target=_idle_poll, args=(stack, pair, side, stop, opened))
        for pair in pairs
        for side in (0, 1)
    ]
    for t in idlers:
        t.start()
    for _ in idlers:
        opened.acquire()
    time.sleep(3)  # every request reaches a thread
    rss1, threads1 = mine.web_memory()
    before = mine.snapshot()
    time.sleep(IDLE_SECONDS)
    idle_cpu = cpu.spent(before, mine.snapshot())
    for t in idlers:
        t.join()

    # Playing.
    start = time.monotonic()
    tally.measure_from = start + WARMUP
    deadline = start + SECONDS
    players = [
        threading.Thread(
            target=_player, args=(stack, pair, side, tally, deadline, SEED * 100_003 + 2 * i + side)
        )
        for i, pair in enumerate(pairs)
        for side in (0, 1)
    ]
    for t in players:
        t.start()
    time.sleep(max(0.0, tally.measure_from - time.monotonic()))
    before = mine.snapshot()
    for t in players:
        t.join()
    measured = time.monotonic() - tally.measure_from
    play_cpu = cpu.spent(before, mine.snapshot())
    waiting = max(1, threads1 - threads0)
    return {
        "m": m,
        "commands_s": len(tally.command_ms) / measured,
        "cmd_p50": _pct(tally.command_ms, 50),
        "cmd_p99": _pct(tally.command_ms, 99),
        "del_p50": _pct(tally.delivery_ms, 50),
        "del_p99": _pct(tally.delivery_ms, 99),
        "deliveries": len(tally.delivery_ms),
        "errors": tally.errors,
        "conflicts": tally.conflicts,
        "samples": tally.samples,
        # CPU per connected player: ms of machine CPU per second per player (= thousandths of a core)
        "base_cores": base_s,
        "idle_ms": 1000
        * (sum(v for k, v in idle_cpu.items() if k != "client") / IDLE_SECONDS - base_s)
        / (2 * m),
        "idle_client_ms": 1000 * idle_cpu["client"] / IDLE_SECONDS / (2 * m),
        "play_ms": 1000
        * (sum(v for k, v in play_cpu.items() if k != "client") / measured - base_s)
        / (2 * m),
        "play_client_ms": 1000 * play_cpu["client"] / measured / (2 * m),
        "cpu_per_cmd": 1000 * (sum(play_cpu.values()) - base_s * measured) / max(1, len(tally.command_ms)),
        "kib_per_poll": (rss1 - rss0) / 1024 / (2 * m),
        "threads": threads1,
        "new_threads": waiting,
    }


def _logged_errors(log: str) -> list[str]:
    """The distinct last lines of the exceptions in gunicorn's JSON log."""
    seen: dict[str, None] = {}
    for line in log.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and record.get("exception"):
            seen[str(record["exception"]).strip().splitlines()[-1][:300]] = None
    return list(seen)


def _run_fresh(url: str, root: Path, m: int, env: dict[str, str]) -> dict[str, Any]:
    """One M on a stack and a broker of its own: its memory and caches start alike, and its new
    consumer groups do not read the previous stacks' events from an old broker (at M = 1,000 that
    catch-up kept 1.3 cores busy before anyone connected)."""
    broker = DevBroker(free_port(), root / f"broker-{m}.log")
    try:
        bootstrap = broker.start()
        roots = [broker.process.pid] if broker.process else []
        roots += cpu.postmasters(url)
        with Stack(url, bootstrap, root / f"stack-{m}", env=env) as stack:
            stack.wait_ready()
            r = _run(stack, m, cpu.StackProcesses(stack, roots))
            if r["errors"]:  # what the server logged about them
                for line in _logged_errors(stack.log("web"))[-5:]:
                    print(f"    web log: {line}")
            print(f"  M = {m} done: {r['commands_s']:.1f} commands/s, errors {r['errors']}", flush=True)
            for sample in r["samples"]:
                print(f"    error sample: {sample}")
            return r
    finally:
        broker.stop()


def main() -> None:
    threading.stack_size(512 * 1024)  # thousands of client threads in this process
    root = Path(tempfile.mkdtemp(prefix="arcana-bench-capacity-"))
    env = {
        "ARCANA_REGISTER_MAX_PER_ADDRESS": "100000",
        "ARCANA_LOGIN_MAX_PER_ADDRESS": "100000",
    }
    results = []
    try:
        with database() as url:
            for m in SIZES:
                results.append(_run_fresh(url, root, m, env))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(
        f"bench-capacity ({SECONDS:.0f} s of play per M, measured after {WARMUP:.0f} s; "
        f"idle {IDLE_SECONDS:.0f} s; think {THINK[0]:.0f}-{THINK[1]:.0f} s; "
        f"{os.cpu_count()} cores shared by server and clients)"
    )
    header = (
        "       M  cmds/s  cmd p50  cmd p99  dlv p50  dlv p99  deliveries  errors  409s"
        "  idle ms/s/player  play ms/s/player  CPU/cmd ms  KiB/waiting poll  web threads"
    )
    print(header)
    base = ", ".join(f"M = {r['m']}: {r['base_cores']:.2f}" for r in results)
    print(f"  the stack with nobody connected used (cores) {base}")
    for r in results:
        print(
            f"  {r['m']:>6} {r['commands_s']:>7.1f} {r['cmd_p50']:>8.1f} {r['cmd_p99']:>8.1f} "
            f"{r['del_p50']:>8.1f} {r['del_p99']:>8.1f} {r['deliveries']:>11} {r['errors']:>7} "
            f"{r['conflicts']:>5} {r['idle_ms']:>10.3f} (+{r['idle_client_ms']:.3f}) "
            f"{r['play_ms']:>10.3f} (+{r['play_client_ms']:.3f})"
            f" {r['cpu_per_cmd']:>11.2f} {r['kib_per_poll']:>17.1f} {r['threads']:>12}"
        )
    ok = [
        r["m"]
        for r in results
        if r["cmd_p99"] < CMD_P99_MS and r["del_p99"] < DELIVERY_P99_MS and r["errors"] == 0
    ]
    print(
        "  ms/s/player: the stack's CPU above its own idle (base) in ms per second per connected player "
        "(+ the clients' own); CPU/cmd: every process above the base, clients included"
    )
    print(
        f"  largest M with command p99 < {CMD_P99_MS:.0f} ms, delivery p99 < {DELIVERY_P99_MS:.0f} ms "
        f"and no errors: {max(ok) if ok else 'none'}"
    )


if __name__ == "__main__":
    main()
