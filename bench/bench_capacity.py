"""make bench-capacity: M live matches of two real clients each, at human pace, over HTTP.

Starts the product as ``make run`` does on a throwaway embedded PostgreSQL, with a new database and
a new dev broker for each M (``BENCH_CAPACITY_M``, default 100,250,500,1000), the long-polls in
their own gevent process (``ARCANA_WAITS``, default ``on`` here):

1. set-up (not measured): 2·M players register and log in over HTTP (accounts), and the operator
   endpoint makes M casual matches of two of them;
2. idle (``BENCH_IDLE_SECONDS``, default 25 s: one whole cycle of a long-poll, with its presence
   touches, its end and the next poll): every player keeps one long-poll open on ``/events``
   (``wait=25``) and nobody acts. Measured: the server's CPU per connected player, the web processes'
   memory and threads per waiting long-poll (against the same server before the set-up);
3. playing (``BENCH_SECONDS``, default 60 s): each player, as a game client would, thinks 2-6 s
   (uniform, seeded) before each command it may make, and while the match does not wait for it
   follows the match with its feed (``BENCH_FEED``: ``long-poll``, the default, ``/events`` after its
   last known version, ``wait=25``; or ``stream``, one ``/stream`` response open per player and
   match); the long-poll's answer, or the stream's state frame, says whether it is the player's
   move and with which legal commands. A pair whose match ends starts another. Measured (over the last
   ``SECONDS - WARMUP`` seconds): commands/s, command latency p50/p99 (the POST), event delivery
   latency p50/p99 (from the moment the command's response reached its sender to the moment the
   opponent's feed returned its events; one sample per command the opponent waited for), errors
   (5xx, transport errors, statuses no client should get), the **server's CPU per command by process
   kind** and the generator's apart (``harness/cpu.py``), and what PostgreSQL wrote per command
   (``bench/_pgstat.py``).

Every player is a coroutine of one asyncio loop in this process, over one aiohttp session
(``harness/loadgen.py``), on the loopback address. Printed: one row per M, the CPU and the writes
per command, and the largest M meeting command p99 < 100 ms and delivery p99 < 200 ms.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import statistics
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import _pgstat as pgstat
from bench._stack import database
from bench.bench_match import _pick
from harness import cpu
from harness.loadgen import FEEDS, TRANSPORT_ERRORS, Feed, Http, Refused, Update
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
FEED = os.environ.get("BENCH_FEED", "long-poll")
CMD_P99_MS, DELIVERY_P99_MS = 100.0, 200.0


@dataclass
class Tally:
    measure_from: float = 0.0
    command_ms: list[float] = field(default_factory=list)
    delivery_ms: list[float] = field(default_factory=list)
    errors: int = 0
    conflicts: int = 0
    samples: list[str] = field(default_factory=list)

    def error(self, what: str) -> None:
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
        self.changed = asyncio.Event()  # set when a new match replaces the current one
        # version -> when the command that produced it was answered (monotonic), for delivery
        self.answered: dict[int, float] = {}
        # version -> when the opponent's feed returned it, if that came before the answer
        self.delivered: dict[int, float] = {}

    def start(self, match: str, version: int) -> None:
        self.match, self.version = match, version
        self.answered, self.delivered = {}, {}
        self.changed.set()
        self.changed = asyncio.Event()


# -- set-up ------------------------------------------------------------------------------------------


async def _register(http: Http, count: int) -> list[tuple[str, str]]:
    """``count`` players registered and logged in over HTTP, 8 at a time: (player id, token)."""
    gate = asyncio.Semaphore(8)

    async def one() -> tuple[str, str]:
        async with gate:
            name, password = f"cap_{uuid.uuid4().hex[:12]}", "bench password 1"
            made = await http.post("/v1/accounts", {"username": name, "password": password})
            logged = await http.post("/v1/sessions", {"username": name, "password": password})
        if made.status != 201 or logged.status != 201:
            raise RuntimeError(f"register/log in: {made.status} {logged.status} {logged.body[:200]!r}")
        body = logged.json()
        return body["player_id"], body["token"]

    return list(await asyncio.gather(*(one() for _ in range(count))))


async def _new_match(http: Http, pair: Pair) -> None:
    setup = {"players": [{"id": p, "deck": list(STARTER_DECK)} for p in pair.players]}
    made = await http.post("/v1/admin/matches", {"setup": setup}, token=OPERATOR_TOKEN)
    if made.status != 201:
        raise RuntimeError(f"creating a match: {made.status} {made.body[:200]!r}")
    pair.start(made.json()["match_id"], made.json()["version"])


async def _idle_poll(http: Http, pair: Pair, side: int, stop: float, opened: list[int]) -> None:
    """Keep one long-poll open until ``stop`` (nobody acts, so each returns empty after its wait)."""
    feed = FEEDS["long-poll"](http, pair.match, pair.tokens[side])
    opened[0] += 1
    while time.monotonic() < stop:
        wait = max(1, min(WAIT, int(stop - time.monotonic())))
        try:
            await feed.next(pair.version, wait)
        except (*TRANSPORT_ERRORS, Refused):
            await asyncio.sleep(1)


# -- a player ----------------------------------------------------------------------------------------


class Player:
    """One side of a pair, as a game client plays: think, move when the match waits for it, else
    follow the match on its feed until it does."""

    def __init__(self, http: Http, pair: Pair, side: int, tally: Tally, deadline: float, seed: int):
        self.http, self.pair, self.side, self.tally, self.deadline = http, pair, side, tally, deadline
        self.rng = random.Random(seed)
        self.me, self.token = pair.players[side], pair.tokens[side]
        self.match = ""
        self.version = 0
        self.legal: list[dict[str, Any]] | None = None  # None: ask
        self.feed: Feed | None = None  # one per match: a stream's stays open between waits

    async def play(self) -> None:
        await asyncio.sleep(self.rng.uniform(0, THINK[1]))  # players arrive at different moments
        while time.monotonic() < self.deadline:
            if self.pair.match != self.match:
                await self.follow_match(self.pair.match)
            try:
                await self.step()
            except (*TRANSPORT_ERRORS, Refused) as exc:
                self.tally.error(repr(exc))
                self.legal = None
        if self.feed is not None:
            await self.feed.close()

    async def follow_match(self, match: str) -> None:
        if self.feed is not None:
            await self.feed.close()
        self.match, self.version, self.legal = match, self.pair.version, None
        self.feed = FEEDS[FEED](self.http, self.match, self.token)

    async def step(self) -> None:
        if self.legal is None:
            await self.ask()
        elif self.legal:
            await self.move()
        else:
            await self.follow()

    async def ask(self) -> None:
        reply = await self.http.get(f"/v1/matches/{self.match}/legal-commands", self.token)
        if reply.status != 200:
            self.tally.error(f"legal-commands {reply.status} {reply.body!r}")
            await asyncio.sleep(1)
            return
        body = reply.json()
        self.version, self.legal = body["version"], body["commands"]
        if not body["awaiting"]:  # ended
            await self.next_match()

    async def move(self) -> None:
        assert self.legal
        await asyncio.sleep(self.rng.uniform(*THINK))
        if time.monotonic() >= self.deadline:
            return
        command = {**_pick(self.legal, self.rng), "expected_version": self.version}
        started = time.monotonic()
        reply = await self.http.post(f"/v1/matches/{self.match}/commands", command, self.token)
        answered = time.monotonic()
        if reply.status == 409:  # a deadline or the opponent moved first
            self.tally.conflicts += 1
            self.legal = None
            return
        if reply.status != 200:
            self.tally.error(f"command {reply.status} {reply.body!r}")
            self.legal = None
            return
        body = reply.json()
        self.version = body["version"]
        self.pair.answered[self.version] = answered
        early = self.pair.delivered.pop(self.version, None)
        if started >= self.tally.measure_from:
            self.tally.command_ms.append((answered - started) * 1000)
            if early is not None:  # the opponent had it before this answer came
                self.tally.delivery_ms.append(0.0)
        await self.then(body["awaiting"], body["legal_commands"])

    async def follow(self) -> None:
        """Not my move: the feed's next events, then what may I do now?"""
        assert self.feed is not None
        wait = max(1, min(WAIT, int(self.deadline - time.monotonic())))
        update = await self.feed.next(self.version, wait)
        self.delivered(update, time.monotonic())
        self.version = update.version
        if update.awaiting is None:  # the feed does not say: ask
            self.legal = None
            return
        await self.then(update.awaiting, update.legal_commands or [])

    def delivered(self, update: Update, returned: float) -> None:
        sent = []
        for event in update.events:
            at = self.pair.answered.get(event["version"])
            if at is not None:
                sent.append(at)
            else:  # perhaps the last of a batch whose command is not answered yet
                self.pair.delivered[event["version"]] = returned
        if returned >= self.tally.measure_from:
            self.tally.delivery_ms.extend(max(0.0, returned - at) * 1000 for at in sent)

    async def then(self, awaiting: list[str], legal: list[dict[str, Any]]) -> None:
        if not awaiting:
            await self.next_match()
        else:
            self.legal = legal if self.me in awaiting else []

    async def next_match(self) -> None:
        if self.side == 0:
            await _new_match(self.http, self.pair)
            return
        if self.pair.match == self.match:
            left = max(0.0, self.deadline - time.monotonic())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.pair.changed.wait(), left)


# -- one M -------------------------------------------------------------------------------------------


def _pct(values: list[float], q: int) -> float:
    if len(values) < 2:
        return float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


async def _idle(http: Http, pairs: list[Pair], mine: cpu.StackProcesses) -> dict[str, Any]:
    """Every player waits on a long-poll; nobody acts: memory, threads and CPU of the waiting."""
    rss0, threads0 = mine.web_memory()
    stop = time.monotonic() + IDLE_SECONDS + 3
    opened = [0]
    idlers = [
        asyncio.create_task(_idle_poll(http, pair, side, stop, opened)) for pair in pairs for side in (0, 1)
    ]
    while opened[0] < len(idlers):
        await asyncio.sleep(0.05)
    await asyncio.sleep(3)  # every request reaches the server
    rss1, threads1 = mine.web_memory()
    before = mine.snapshot()
    await asyncio.sleep(IDLE_SECONDS)
    used = cpu.spent(before, mine.snapshot())
    await asyncio.gather(*idlers)
    return {"cpu": used, "rss": rss1 - rss0, "threads": threads1, "new_threads": threads1 - threads0}


async def _play(http: Http, pairs: list[Pair], mine: cpu.StackProcesses, db: str) -> dict[str, Any]:
    tally = Tally()
    start = time.monotonic()
    tally.measure_from = start + WARMUP
    deadline = start + SECONDS
    players = [
        Player(http, pair, side, tally, deadline, SEED * 100_003 + 2 * i + side)
        for i, pair in enumerate(pairs)
        for side in (0, 1)
    ]
    tasks = [asyncio.create_task(p.play()) for p in players]
    await asyncio.sleep(max(0.0, tally.measure_from - time.monotonic()))
    wrote = pgstat.sample(db)  # before the CPU sample: the generator's window holds only its players
    before = mine.snapshot()
    await asyncio.gather(*tasks)
    measured = time.monotonic() - tally.measure_from
    used = cpu.spent(before, mine.snapshot())
    return {"tally": tally, "measured": measured, "cpu": used, "writes": pgstat.sample(db).minus(wrote)}


async def _run(stack: Stack, m: int, mine: cpu.StackProcesses) -> dict[str, Any]:
    http = Http(stack.url, timeout=WAIT + 30)
    try:
        before = mine.snapshot()  # the stack alone: beat sweeps, relays and consumers polling, PostgreSQL
        await asyncio.sleep(IDLE_SECONDS)
        base = {k: v / IDLE_SECONDS for k, v in cpu.spent(before, mine.snapshot()).items()}
        accounts = await _register(http, 2 * m)
        pairs = [
            Pair([accounts[2 * i][0], accounts[2 * i + 1][0]], [accounts[2 * i][1], accounts[2 * i + 1][1]])
            for i in range(m)
        ]
        for pair in pairs:
            await _new_match(http, pair)
        idle = await _idle(http, pairs, mine)
        played = await _play(http, pairs, mine, stack.database_url)
    finally:
        await http.close()
    return _figures(m, base, idle, played)


def _figures(m: int, base: dict[str, float], idle: dict[str, Any], played: dict[str, Any]) -> dict[str, Any]:
    tally, measured, play_cpu = played["tally"], played["measured"], played["cpu"]
    commands = len(tally.command_ms)
    base_server = cpu.server(base)
    return {
        "m": m,
        "commands": commands,
        "commands_s": commands / measured,
        "cmd_p50": _pct(tally.command_ms, 50),
        "cmd_p99": _pct(tally.command_ms, 99),
        "del_p50": _pct(tally.delivery_ms, 50),
        "del_p99": _pct(tally.delivery_ms, 99),
        "deliveries": len(tally.delivery_ms),
        "errors": tally.errors,
        "conflicts": tally.conflicts,
        "samples": tally.samples,
        "base": base,
        # CPU per connected player: ms of CPU per second per player (= thousandths of a core)
        "idle_ms": 1000 * (cpu.server(idle["cpu"]) / IDLE_SECONDS - base_server) / (2 * m),
        "idle_gen_ms": 1000 * idle["cpu"][cpu.GENERATOR] / IDLE_SECONDS / (2 * m),
        "play_ms": 1000 * (cpu.server(play_cpu) / measured - base_server) / (2 * m),
        "play_gen_ms": 1000 * play_cpu[cpu.GENERATOR] / measured / (2 * m),
        # CPU ms per command, each kind, over the measured window (gross: the idle base included)
        "per_cmd": {k: 1000 * v / max(1, commands) for k, v in play_cpu.items()},
        "server_above_base": 1000 * (cpu.server(play_cpu) - base_server * measured) / max(1, commands),
        "writes": played["writes"],
        "kib_per_poll": idle["rss"] / 1024 / (2 * m),
        "threads": idle["threads"],
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
            r = asyncio.run(_run(stack, m, cpu.StackProcesses(stack, roots)))
            if r["errors"]:  # what the server logged about them
                for line in _logged_errors(stack.log("web"))[-5:]:
                    print(f"    web log: {line}")
            print(f"  M = {m} done: {r['commands_s']:.1f} commands/s, errors {r['errors']}", flush=True)
            for sample in r["samples"]:
                print(f"    error sample: {sample}")
            return r
    finally:
        broker.stop()


def _print(results: list[dict[str, Any]]) -> None:
    print(
        f"bench-capacity ({SECONDS:.0f} s of play per M, measured after {WARMUP:.0f} s; "
        f"idle {IDLE_SECONDS:.0f} s; think {THINK[0]:.0f}-{THINK[1]:.0f} s; feed {FEED}; "
        f"ARCANA_WAITS={os.environ.get('ARCANA_WAITS')}; {os.cpu_count()} cores shared by server and "
        f"generator; load average {os.getloadavg()[0]:.1f} at the end)"
    )
    print(
        "       M  cmds/s  cmd p50  cmd p99  dlv p50  dlv p99  deliveries  errors  409s"
        "  idle ms/s/player  play ms/s/player  KiB/waiting poll  web threads"
    )
    for r in results:
        print(
            f"  {r['m']:>6} {r['commands_s']:>7.1f} {r['cmd_p50']:>8.1f} {r['cmd_p99']:>8.1f} "
            f"{r['del_p50']:>8.1f} {r['del_p99']:>8.1f} {r['deliveries']:>11} {r['errors']:>7} "
            f"{r['conflicts']:>5} {r['idle_ms']:>10.3f} (+{r['idle_gen_ms']:.3f}) "
            f"{r['play_ms']:>10.3f} (+{r['play_gen_ms']:.3f}) {r['kib_per_poll']:>17.1f} {r['threads']:>12}"
        )
    print(
        "  ms/s/player: the server's CPU above its idle base per second per connected player "
        "(+ the generator's)"
    )
    print("\n  CPU ms per command by process kind (the measured window, idle base included):")
    print(
        "  "
        + " ".join(f"{name:>13}" for name in ("M", *cpu.SERVER_PARTS, "server", "above base", "GENERATOR"))
    )
    for r in results:
        per = r["per_cmd"]
        cells = [per[part] for part in cpu.SERVER_PARTS]
        total = sum(cells)
        row = [*cells, total, r["server_above_base"], per[cpu.GENERATOR]]
        print(f"  {r['m']:>13} " + " ".join(f"{v:>13.2f}" for v in row))
    for r in results:
        base = ", ".join(f"{k} {1000 * v:.0f}" for k, v in r["base"].items() if k != cpu.GENERATOR)
        print(f"  M = {r['m']}: the server with nobody connected, CPU ms per second: {base}")
    for r in results:
        print(f"\n  M = {r['m']}: PostgreSQL's writes in the measured window, per command:")
        for line in pgstat.per_command(r["writes"], r["commands"]):
            print(f"    {line}")
    ok = [
        r["m"]
        for r in results
        if r["cmd_p99"] < CMD_P99_MS and r["del_p99"] < DELIVERY_P99_MS and not r["errors"]
    ]
    print(
        f"\n  largest M with command p99 < {CMD_P99_MS:.0f} ms, delivery p99 < {DELIVERY_P99_MS:.0f} ms "
        f"and no errors: {max(ok) if ok else 'none'}"
    )


def main() -> None:
    os.environ.setdefault("ARCANA_WAITS", "on")
    print(f"bench-capacity: load average {os.getloadavg()[0]:.1f} at the start", flush=True)
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
    _print(results)


if __name__ == "__main__":
    main()
