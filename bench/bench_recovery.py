"""make bench-recovery: M live matches through a SIGKILL of the whole stack; how long until every
match answers its players again and every deadline that passed while it was down is enforced.

The steps are those of ``harness/recovery.py`` (the e2e test runs them with M = 3):

1. set-up (not measured): `make run` (``python -m libs.devstack.run``, on a temporary data folder and
   free ports, ``ARCANA_CLOCK_FILE`` set); M operator matches (``BENCH_RECOVERY_M``, default 1,000),
   each past the mulligan and a few commands, over ``BENCH_RECOVERY_THREADS`` (default 8) keep-alive
   clients (set-up only: what is measured after the crash runs as coroutines of one asyncio loop,
   ``harness/loadgen.py``); each match's snapshot (both views, both event lists); then, right before
   the crash, the last moves: each turn ended once more (an acknowledged command) and the other
   player looking;
2. t0: every process `make run` started (gunicorn's master and workers, Celery's worker and pool,
   beat, the relays, the consumers, the broker) and PostgreSQL (postmaster and backends) SIGKILLed in
   one pass; the clock moved 61 s forward, so every turn deadline passes while the stack is down;
   `make run` itself, the supervisor, brings everything back with its own restart delays;
3. measured, in seconds from t0: PostgreSQL accepting connections, ``/readyz`` 200, every match's
   view answering 200 for both players (``BENCH_RECOVERY_THREADS`` reads at a time; each read is
   tried again after a refused connection or a 5xx), every overdue deadline enforced (one
   long-poll per match on ``/events`` after its snapshot's version, as a waiting client holds it,
   until a ``TurnTimedOut`` comes), and, off the players' path, the relays' republishing of the
   whole log to the new, empty broker. Printed with it: what the supervisor, gunicorn, Celery and
   PostgreSQL logged after t0 (with the time each line appeared), PostgreSQL's ``redo`` lines and
   the beat sweeps that ran;
4. checks (nothing lost): ``harness/recovery.verify``; the number of matches with a problem is
   printed with the first problems. Exit status 1 when any match has a problem, never answered, or
   had no deadline enforced.

Everything runs on 127.0.0.1. It stops by itself: each wait is bounded (``BENCH_RECOVERY_LIMIT``
seconds after t0, default 300) and the whole run by ``BENCH_RECOVERY_DEADLINE`` (default 1,800 s);
the stack's processes and the temporary folder are removed even after a failure.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType

from harness import cpu, recovery
from harness.makerun import MakeRun
from libs.config import env_int

M = env_int("BENCH_RECOVERY_M", 1000)
THREADS = env_int("BENCH_RECOVERY_THREADS", 8)
LIMIT = env_int("BENCH_RECOVERY_LIMIT", 300)
DEADLINE = env_int("BENCH_RECOVERY_DEADLINE", 1800)
STARTUP_SECONDS = 180


class Timeline(threading.Thread):
    """Lines appended to some log files, each with the moment (monotonic) it was first seen (polled
    every 50 ms): what the supervisor and the restarted processes said after the crash."""

    def __init__(self, files: dict[str, tuple[Path, Callable[[str], bool]]]) -> None:
        super().__init__(daemon=True)
        self.files = files
        self.offsets = {label: _size(path) for label, (path, _) in files.items()}
        self.lines: list[tuple[float, str, str]] = []
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.05):
            self.read_new()
        self.read_new()

    def read_new(self) -> None:
        for label, (path, wanted) in self.files.items():
            if _size(path) < self.offsets[label]:  # the file was replaced
                self.offsets[label] = 0
            try:
                with path.open("rb") as f:
                    f.seek(self.offsets[label])
                    chunk = f.read()
            except OSError:
                continue
            complete = chunk[: chunk.rfind(b"\n") + 1]
            self.offsets[label] += len(complete)
            now = time.monotonic()
            for raw in complete.decode(errors="replace").splitlines():
                if wanted(raw):
                    self.lines.append((now, label, raw.strip()))

    def stop(self) -> None:
        self.done.set()
        self.join(5)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _any(*marks: str) -> Callable[[str], bool]:
    return lambda line: any(mark in line for mark in marks)


def _timeline(stack: MakeRun) -> Timeline:
    logs = stack.data / "logs"
    return Timeline(
        {
            "make run": (stack.output_path, lambda line: bool(line.strip())),
            "postgres": (stack.postgres_log, _any("redo", "ready to accept", "interrupted", "recovery")),
            "web": (logs / "web.log", _any("Listening at", "Booting worker")),
            "celery-worker": (logs / "celery-worker.log", _any("ready.", "match.sweep")),
            "celery-beat": (logs / "celery-beat.log", _any("beat: Starting")),
            "relays": (logs / "relays.log", _any("new broker")),
        }
    )


def _seconds(value: float | None) -> str:
    return "never (limit reached)" if value is None else f"{value:7.2f} s"


def _took(what: str, started: float) -> None:
    print(f"  {what}: {time.monotonic() - started:.1f} s", flush=True)


def _on_deadline(signum: int, frame: FrameType | None) -> None:
    raise TimeoutError(f"bench-recovery: the overall deadline ({DEADLINE} s) has passed")


def _sweeps(worker_log: str, t0_line: int) -> list[str]:
    """The beat sweeps Celery ran after the crash: 'succeeded in 3.21s: 500' (matches visited)."""
    found = []
    for line in worker_log.splitlines()[t0_line:]:
        hit = re.search(r"match\.sweep\[[^\]]*\] succeeded in ([0-9.]+)s: (\d+)", line)
        if hit:
            found.append(f"{float(hit.group(1)):.2f} s for {hit.group(2)} matches")
    return found


def run(root: Path) -> int:
    stack = MakeRun(root)
    try:
        print(
            f"bench-recovery: M = {M} live matches, {THREADS} client threads, {os.cpu_count()} cores, "
            f"load average {os.getloadavg()[0]:.1f}"
        )
        started = time.monotonic()
        stack.wait_ready(STARTUP_SECONDS)
        _took("make run up (/readyz 200)", started)
        started = time.monotonic()
        matches = recovery.open_and_drive(stack, M, THREADS)
        _took("matches created and driven past the mulligan", started)
        started = time.monotonic()
        snapshots = recovery.take_snapshots(stack, matches, THREADS)
        _took("snapshots taken (both views, both event lists)", started)
        started = time.monotonic()
        snapshots = recovery.make_last_moves(stack, snapshots, THREADS)
        _took("last moves (each turn ended, the other player looking)", started)
        heads, before = recovery.log_heads(stack.database_url), recovery.relay_progress(stack.database_url)
        events = sum(len(s.events[s.match.players[0]]) for s in snapshots)
        print(
            f"  {sum(s.playing for s in snapshots)} of {len(snapshots)} matches playing; "
            f"match log {heads.get('match', 0)} positions; player 1 sees {events / len(snapshots):.1f} "
            "events per match",
            flush=True,
        )
        worker_lines = len(stack.log("celery-worker").splitlines())
        timeline = _timeline(stack)
        timeline.start()
        crashed = recovery.crash(stack)
        jump = recovery.CLOCK_JUMP_SECONDS
        print(f"t0: {crashed.killed} processes SIGKILLed; the clock moved {jump} s forward", flush=True)
        generator_cpu = cpu.snapshot(only=set())  # this process alone: the stack's are all new after t0
        found = recovery.watch_recovery(
            stack, snapshots, crashed, heads=heads, before=before, threads=THREADS, limit=LIMIT
        )
        spent = cpu.spent(generator_cpu, cpu.snapshot(only=_stack_pids(stack)))
        window = time.monotonic() - crashed.at
        timeline.stop()
        _report(found, timeline, crashed, stack, worker_lines)
        _report_cpu(spent, window)
        problems = recovery.verify(stack, snapshots, crashed, THREADS)
        return _verdict(found, problems, snapshots)
    finally:
        stack.stop_surely()


def _report(
    found: recovery.Recovery, timeline: Timeline, crashed: recovery.Crash, stack: MakeRun, worker_lines: int
) -> None:
    print("\nafter the crash (seconds from t0):")
    print(f"  PostgreSQL accepting connections      {_seconds(found.postgres)}")
    print(f"  /readyz 200                           {_seconds(found.ready)}")
    print(f"  every view answered, both players     {_seconds(found.views)}")
    print(f"  every overdue deadline enforced       {_seconds(found.deadlines)}")
    print(f"  relays republished to the new broker  {_seconds(found.republished)}  (off the players' path)")
    redo = [line for _, label, line in timeline.lines if label == "postgres" and "redo done at" in line]
    print(f"  PostgreSQL: {redo[0] if redo else 'no redo done at line (no WAL to replay)'}")
    print("\nwhat was logged after t0:")
    for at, label, line in timeline.lines:
        print(f"  {at - crashed.at:7.2f} s  [{label}] {line[:160]}")
    sweeps = _sweeps(stack.log("celery-worker"), worker_lines)
    print(f"\nbeat sweeps after t0: {len(sweeps)}: {'; '.join(sweeps[:12]) or 'none logged'}")


def _stack_pids(stack: MakeRun) -> set[int]:
    """The processes of this stack now: `make run`'s tree and PostgreSQL's (detached by pg_ctl)."""
    postmaster = stack.postmaster_pid()
    return cpu.tree([stack.proc.pid, *([postmaster] if postmaster else [])])


def _report_cpu(spent: dict[str, float], window: float) -> None:
    parts = ", ".join(f"{part} {spent[part]:.1f}" for part in cpu.SERVER_PARTS)
    server = cpu.server(spent)
    print(
        f"\nCPU seconds from t0 until the watching ended ({window:.1f} s; the processes alive at its "
        f"end and the children they reaped, PostgreSQL's closed backends included): server {server:.1f} "
        f"= {server / window:.2f} of the {os.cpu_count()} cores ({parts}); the generator apart: "
        f"{spent[cpu.GENERATOR]:.1f}; load average now {os.getloadavg()[0]:.1f}"
    )


def _verdict(found: recovery.Recovery, problems: list[str], snapshots: list[recovery.Snapshot]) -> int:
    matches_with_problems = len({p.split(":", 1)[0] for p in problems})
    print(f"\nmismatches: {matches_with_problems} of {len(snapshots)} matches")
    for problem in problems[:10]:
        print(f"  {problem}")
    print(f"never answered: {len(found.unanswered)}; deadlines not enforced: {len(found.not_enforced)}")
    for line in (found.unanswered + found.not_enforced)[:10]:
        print(f"  {line}")
    return 1 if problems or found.unanswered or found.not_enforced else 0


def main() -> int:
    signal.signal(signal.SIGALRM, _on_deadline)
    signal.signal(signal.SIGTERM, _on_deadline)
    signal.alarm(DEADLINE)
    root = Path(tempfile.mkdtemp(prefix="arcana-bench-recovery-"))
    try:
        return run(root)
    finally:
        signal.alarm(0)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
