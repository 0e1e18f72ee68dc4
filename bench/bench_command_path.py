"""make bench-command-path: the match service's CPU per request on its three hot endpoints.

``POST /v1/matches/{id}/commands``, ``GET /v1/matches/{id}`` (the view) and
``GET /v1/matches/{id}/legal-commands``, served in process: the match service's Flask app (as
``libs.kit.web.service_app`` builds it, deadlines and bots recorded, not sent to Celery; metrics in
a ``PROMETHEUS_MULTIPROC_DIR`` as under gunicorn; the access log written to a file) driven by
Flask's test client against a real embedded PostgreSQL. Each request's cost is the process's CPU time
(``time.process_time``) around it: the server's Python work (routing, auth, arguments, the use case,
the repository, psycopg's side of the queries, the access log and the metrics) plus the test
client's own small share, and nothing of other processes, so a loaded machine changes it little.
PostgreSQL's CPU (its server processes, measured by psutil over the same requests) is printed apart.

Each run plays ``BENCH_CP_MATCHES`` Arcana matches (default 20) in turn, a random bot's command at a
time: the mover's legal commands, one of them posted with its expected version, then the view and
the legal commands the client reads after it. Matches that end are replaced. ``BENCH_CP_WARMUP``
commands (default 150) first, not measured (imports, caches, prepared statements). Per command =
command + view + legal commands.

Each tree runs in a child process of its own (``--child``), each in a schema of its own on one
PostgreSQL. The children of a round live side by side and play in lockstep: ``BENCH_CP_BLOCKS``
blocks (default 12) of ``BENCH_CP_BLOCK`` commands (default 50) each, the trees' blocks alternated
(A, B, B, A, A, B…), so that a busy moment of the shared machine falls on every tree alike;
``BENCH_CP_ROUNDS`` rounds (default 3) with fresh children. The trees are this checkout and any
given on the command line: another commit's checkout (``git worktree add``) runs this same file
with its own code (``PYTHONPATH`` = that tree), for before/after figures in one run:

    .venv/bin/python -m bench.bench_command_path /work/wt-old   # this tree and /work/wt-old
    make bench-command-path TREES=/work/wt-old                  # the same

Printed: per tree and round, the CPU ms per request; then the median over rounds (min-max).
With ``BENCH_CP_PROFILE=<file>``, one more run of this tree under py-spy (its raw samples written to
the file) and the functions with the largest share of the measured samples.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

SECRET = "bench-command-path-" + "s" * 50
OPERATOR = "bench-operator-" + "o" * 30
ENDPOINTS = ("command", "view", "legal")
POOL = 4


def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, "") or default)


# --- the child: one tree's code, one schema, one measured run --------------------------------------


def _starter_deck() -> list[str]:
    try:
        from libs.games.arcana import STARTER_DECK
    except ImportError:  # a checkout from before libs/games
        from libs.rules import STARTER_DECK  # type: ignore[no-redef,attr-defined,unused-ignore]
    return list(STARTER_DECK)


def _pick(commands: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random player who keeps the opening hand and never concedes; ends the turn one time in five."""
    mulligans = [c for c in commands if c["type"] == "mulligan"]
    if mulligans:
        return next((c for c in mulligans if not c.get("cards")), mulligans[0])
    actions = [c for c in commands if c["type"] not in ("end_turn", "concede")]
    if actions and rng.random() < 0.8:
        return rng.choice(actions)
    return next((c for c in commands if c["type"] == "end_turn"), commands[0])


class _Meter:
    """CPU seconds of this process per endpoint, and of PostgreSQL's processes over the same calls."""

    def __init__(self) -> None:
        self.postgres: list[Any] = []
        self.cpu: dict[str, list[float]] = {name: [] for name in ENDPOINTS}
        self.pg_seconds = 0.0

    def start(self, postmaster: int) -> None:
        """Measure from now on: PostgreSQL's processes as they are now (the pool is full by then)."""
        import psutil

        server = psutil.Process(postmaster)
        self.postgres = [server, *server.children()]

    def _pg(self) -> float:
        import psutil

        total = 0.0
        for proc in self.postgres:
            try:
                t = proc.cpu_times()
            except psutil.Error:
                continue
            total += t.user + t.system
        return total

    def call(self, endpoint: str, send: Any, *args: Any, **kwargs: Any) -> Any:
        if not self.postgres:
            return send(*args, **kwargs)
        pg = self._pg()
        start = time.process_time()
        reply = send(*args, **kwargs)
        self.cpu[endpoint].append(time.process_time() - start)
        self.pg_seconds += self._pg() - pg
        return reply


class _Table:
    """One match being played: its players' clients and what the server last said."""

    def __init__(self, app: Any, deck: list[str], seed: int) -> None:
        from libs.web import issue_token

        self.app, self.deck, self.seed = app, deck, seed
        self.operator = app.test_client()
        self.headers: dict[str, dict[str, str]] = {}
        self.clients: dict[str, Any] = {}
        for _ in range(2):
            player = str(uuid.uuid4())
            token = issue_token(SECRET, uuid.UUID(player), 3600).token
            self.headers[player] = {"Authorization": f"Bearer {token}"}
            self.clients[player] = app.test_client()
        self.new_match()

    def new_match(self) -> None:
        setup = {"players": [{"id": p, "deck": self.deck} for p in self.clients], "seed": self.seed}
        self.seed += 1
        reply = self.operator.post(
            "/v1/admin/matches", json={"setup": setup}, headers={"Authorization": f"Bearer {OPERATOR}"}
        )
        assert reply.status_code == 201, reply.get_json()
        self.base = f"/v1/matches/{reply.get_json()['match_id']}"
        self.mover: str = next(iter(self.clients))
        self.legal: dict[str, Any] | None = None

    def get(self, meter: _Meter, endpoint: str, player: str, path: str) -> dict[str, Any]:
        reply = meter.call(endpoint, self.clients[player].get, path, headers=self.headers[player])
        assert reply.status_code == 200, (path, reply.get_json())
        body: dict[str, Any] = reply.get_json()
        return body

    def step(self, meter: _Meter, rng: random.Random) -> bool:
        """One command of the match (its mover's), then the view and the legal commands; False when
        the mover could not act (the legal commands are asked again, of whom the match awaits)."""
        if self.legal is None:
            self.legal = self.get(meter, "legal", self.mover, f"{self.base}/legal-commands")
        if not self.legal["awaiting"]:
            self.new_match()
            return False
        if not self.legal["commands"]:
            self.mover = self.legal["awaiting"][0]
            self.legal = None
            return False
        body = {**_pick(self.legal["commands"], rng), "expected_version": self.legal["version"]}
        body.pop("player", None)
        client, headers = self.clients[self.mover], self.headers[self.mover]
        reply = meter.call("command", client.post, f"{self.base}/commands", json=body, headers=headers)
        assert reply.status_code == 200, (body, reply.get_json())
        self.get(meter, "view", self.mover, self.base)
        self.legal = self.get(meter, "legal", self.mover, f"{self.base}/legal-commands")
        if self.legal["awaiting"] and self.mover not in self.legal["awaiting"]:
            self.mover = self.legal["awaiting"][0]
            self.legal = None
        return True


def _app(url: str, schema: str) -> Any:
    from libs.config import PROJECT_ROOT, Settings
    from libs.db import make_pool, migrate
    from libs.kit.web import service_app
    from services.match.scheduling import RecordingScheduler

    migrate(url, schema, [PROJECT_ROOT / "services" / "match" / "migrations"])
    settings = Settings(
        database_url=url,
        kafka_bootstrap_servers="",
        celery_broker_url="",
        token_secret=SECRET,
        token_ttl_seconds=3600,
        operator_token=OPERATOR,
        max_body_bytes=16 * 1024,
    )
    pool = make_pool(url, min_size=POOL, max_size=POOL)  # all open before the measured part
    return service_app("match", settings, pool, schema=schema, scheduler=RecordingScheduler())


def _play(meter: _Meter, tables: list[_Table], rng: random.Random, commands: int) -> None:
    done = 0
    while done < commands:
        for table in tables:
            done += table.step(meter, rng)


def _measured(meter: _Meter, tables: list[_Table], rng: random.Random, commands: int) -> None:
    """The measured commands (a function of its own: the profile keeps the samples under it)."""
    _play(meter, tables, rng, commands)


def child(url: str, schema: str, postmaster: int) -> None:
    """This tree's code, set up and warmed up; then one measured block of commands per ``go N``
    line on stdin, its CPU seconds per endpoint (sum, count) and PostgreSQL's as a JSON line."""
    app = _app(url, schema)
    rng = random.Random(1)
    deck = _starter_deck()
    tables = [_Table(app, deck, seed * 1000) for seed in range(_env_int("BENCH_CP_MATCHES", 20))]
    _play(_Meter(), tables, rng, _env_int("BENCH_CP_WARMUP", 150))
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        meter = _Meter()
        meter.start(postmaster)
        _measured(meter, tables, rng, int(line.split()[1]))
        sums = {name: [sum(seconds), len(seconds)] for name, seconds in meter.cpu.items()}
        print(json.dumps({**sums, "postgres": meter.pg_seconds}), flush=True)


# --- the driver: one PostgreSQL, the trees' runs in lockstep ---------------------------------------


def _postmaster(url: str) -> int:
    import psutil
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT pg_backend_pid()").fetchone()
    assert row is not None
    return int(psutil.Process(row[0]).ppid())


class _Child:
    """One tree's child process (``--child``), answering one block of commands at a time."""

    def __init__(self, tree: Path, url: str, schema: str, postmaster: int, profile: Path | None = None):
        self.tree = tree
        self.metrics = tempfile.mkdtemp(prefix="arcana-bench-metrics-")  # as under gunicorn
        env = {**os.environ, "PYTHONPATH": str(tree), "PROMETHEUS_MULTIPROC_DIR": self.metrics}
        command = [sys.executable, str(Path(__file__).resolve()), "--child", url, schema, str(postmaster)]
        if profile is not None:  # py-spy samples the run (CPU only: idle samples are left out)
            spy = str(Path(sys.executable).with_name("py-spy"))
            command = [spy, "record", "--rate", "250", "--format", "raw", "-o", str(profile), "--", *command]
        self.log = tempfile.TemporaryFile()  # noqa: SIM115  (closed by close()) the access log, then dropped
        self.proc = subprocess.Popen(
            command,
            cwd=tree,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
        )
        self._answer()  # ready

    def _answer(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith("{"):  # py-spy prints its own lines too
                answer: dict[str, Any] = json.loads(line)
                return answer
        self.log.seek(0)
        tail = self.log.read()[-3000:].decode(errors="replace")
        raise RuntimeError(f"the run of {self.tree} ended ({self.proc.wait()}):\n{tail}")

    def block(self, commands: int) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"go {commands}\n")
        self.proc.stdin.flush()
        return self._answer()

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()
        self.log.close()
        shutil.rmtree(self.metrics, ignore_errors=True)


def _figures(blocks: list[dict[str, Any]]) -> dict[str, float]:
    """CPU ms per request of each endpoint, per command, and PostgreSQL's per command."""
    ms = {n: sum(b[n][0] for b in blocks) / sum(b[n][1] for b in blocks) * 1000 for n in ENDPOINTS}
    commands = sum(b["command"][1] for b in blocks)
    pg = sum(b["postgres"] for b in blocks) / commands * 1000
    return {**ms, "per_command": sum(ms.values()), "postgres_per_command": pg, "commands": commands}


def _round(trees: list[Path], url: str, r: int, postmaster: int) -> list[dict[str, float]]:
    """Every tree's child at once, their blocks alternated (A, B, B, A, A, B…): a busy moment of
    the machine falls on both."""
    children = [_Child(tree, url, f"bench_cp_{r}_{i}", postmaster) for i, tree in enumerate(trees)]
    blocks: list[list[dict[str, Any]]] = [[] for _ in trees]
    size = _env_int("BENCH_CP_BLOCK", 50)
    try:
        for b in range(_env_int("BENCH_CP_BLOCKS", 12)):
            order = list(range(len(trees)))
            for i in order if b % 2 == 0 else order[::-1]:
                blocks[i].append(children[i].block(size))
    finally:
        for child_ in children:
            child_.close()
    return [_figures(found) for found in blocks]


def _frame(sample: str) -> str:
    """``function (file:line)`` without the line: one frame per function."""
    return re.sub(r":\d+\)$", ")", sample)


def profile_shares(raw: Path, top: int = 30) -> list[tuple[float, float, str]]:
    """From py-spy's raw output: the functions with the largest share of the measured samples
    (those under ``_measured``, the meter's own reads of PostgreSQL's CPU left out), as
    (inclusive share, own share, function)."""
    inclusive: dict[str, int] = {}
    own: dict[str, int] = {}
    total = 0
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = [_frame(f) for f in stack.split(";")]
        marks = [i for i, f in enumerate(frames) if f.startswith("_measured ")]
        if not marks or any(f.startswith("_Meter._pg ") for f in frames):  # the meter's own reads
            continue
        frames = frames[marks[0] :]
        n = int(count)
        total += n
        for f in set(frames):
            inclusive[f] = inclusive.get(f, 0) + n
        own[frames[-1]] = own.get(frames[-1], 0) + n
    ranked = sorted(inclusive.items(), key=lambda kv: -kv[1])[:top]
    return [(n / total, own.get(f, 0) / total, f) for f, n in ranked]


def _print_profile(raw: Path) -> None:
    print(f"py-spy profile of one run of this tree ({raw}): share of the measured CPU samples")
    print(f"{'incl.':>7}{'own':>7}  function")
    for inclusive, own, frame in profile_shares(raw):
        print(f"{inclusive:>7.1%}{own:>7.1%}  {frame}")


def _cell(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def _report(trees: list[Path], runs: dict[Path, list[dict[str, Any]]]) -> None:
    columns = (*ENDPOINTS, "per_command", "postgres_per_command")
    names = ("command", "view", "legal", "per command", "PostgreSQL/cmd")
    print(f"CPU ms per request, median of {len(runs[trees[0]])} runs (min-max); in process, test client")
    print(f"{'tree':28}" + "".join(f"{n:>22}" for n in names))
    for tree in trees:
        cells = [_cell([r[c] for r in runs[tree]]) for c in columns]
        print(f"{str(tree)[-28:]:28}" + "".join(f"{c:>22}" for c in cells))


def main(argv: list[str]) -> None:
    if argv[:1] == ["--child"]:
        child(argv[1], argv[2], int(argv[3]))
        return
    from bench._stack import database

    trees = [Path(__file__).resolve().parents[1], *(Path(a).resolve() for a in argv)]
    profile = Path(os.environ["BENCH_CP_PROFILE"]).resolve() if os.environ.get("BENCH_CP_PROFILE") else None
    runs: dict[Path, list[dict[str, Any]]] = {tree: [] for tree in trees}
    with database() as url:
        postmaster = _postmaster(url)
        for r in range(_env_int("BENCH_CP_ROUNDS", 3)):
            for tree, result in zip(trees, _round(trees, url, r, postmaster), strict=True):
                runs[tree].append(result)
                print(f"round {r + 1}, {tree}: {json.dumps({k: round(v, 3) for k, v in result.items()})}")
        if profile is not None:  # one more run of this tree alone, sampled (not in the figures)
            sampled = _Child(trees[0], url, "bench_cp_profile", postmaster, profile)
            sampled.block(_env_int("BENCH_CP_BLOCK", 50) * _env_int("BENCH_CP_BLOCKS", 12))
            sampled.close()
    _report(trees, runs)
    if profile is not None:
        _print_profile(profile)


if __name__ == "__main__":
    main(sys.argv[1:])
