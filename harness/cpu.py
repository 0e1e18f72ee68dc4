"""CPU time spent by each kind of process of the stack during a benchmark phase (user + system
seconds), sampled from /proc (psutil).

The kinds are told apart by command line: ``web`` (the gthread gunicorn, master and workers),
``waits`` (the gevent gunicorn of the long-polls, ``services.match.waits_wsgi``), ``postgres`` (the
embedded server: the postmaster and its backends and helpers), ``relays``, ``consumers``,
``celery-worker`` (and its pool), ``celery-beat``, ``broker`` (Tansu); and ``generator``, this
benchmark process (its players, and nothing else: its children are the stack).

Processes that end inside a phase count too: each process's figure is its own CPU plus that of the
children it has reaped (/proc's ``cutime``/``cstime``). PostgreSQL's backends are the postmaster's
children and are reaped by it, so a backend that lived only between two samples is in the
postmaster's figure; ``pg_ctl`` detaches the postmaster from whoever started it, which is why
``time make bench-…`` never counted them. A process that started inside the phase counts whole; one
that ended inside it is subtracted as sampled before only when its parent (which reaped it) is
sampled after.
"""

from __future__ import annotations

import os
import time
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import psutil

from libs.devstack.postgres import SYSTEM_USER

GENERATOR = "generator"
SERVER_PARTS = (
    "web",
    "waits",
    "postgres",
    "relays",
    "consumers",
    "celery-worker",
    "celery-beat",
    "broker",
)
PARTS = (GENERATOR, *SERVER_PARTS)
# How a stack's process is named by its command line (first marker found); harness/suite_cpu.py
# names the same processes the same way.
MARKERS = (
    ("waits_wsgi", "waits"),
    ("gunicorn", "web"),
    (" beat ", "celery-beat"),
    ("celery", "celery-worker"),
    ("libs.kit.relay", "relays"),
    ("libs.kit.consume", "consumers"),
    ("tansu", "broker"),
)


@dataclass(frozen=True)
class Sample:
    part: str
    seconds: float  # CPU so far, its reaped children's included
    ppid: int


def _part(proc: psutil.Process, me: int) -> str | None:
    if proc.pid == me:
        return GENERATOR
    try:
        if proc.username() == SYSTEM_USER or proc.name() == "postgres":
            return "postgres"
        line = f" {' '.join(proc.cmdline())} "
    except (psutil.Error, OSError):
        return None
    return next((part for marker, part in MARKERS if marker in line), None)


# CPU seconds this process has spent sampling (walking /proc): the generator's figure leaves it out.
_sampling = 0.0


def tree(roots: list[int]) -> set[int]:
    """The pids of ``roots`` and of all their descendants (to tell one stack from others on a
    shared machine: ``snapshot(only=...)``); /proc is read once."""
    children: dict[int, list[int]] = defaultdict(list)
    for proc in psutil.process_iter(["ppid"]):
        children[proc.info["ppid"]].append(proc.pid)
    pids: set[int] = set()
    todo = [pid for pid in roots if psutil.pid_exists(pid)]  # a root's own pid, alive
    while todo:
        pid = todo.pop()
        if pid not in pids:
            pids.add(pid)
            todo.extend(children.get(pid, ()))
    return pids


def snapshot(only: set[int] | None = None, started: float | None = None) -> dict[int, Sample]:
    """Every stack process (or only those of ``only``, and this one): pid → its sample. The CPU this
    process spends sampling (since ``started``, ``time.process_time()``, when the caller's own
    sampling began earlier) is not the generator's: it is left out of its figure."""
    global _sampling
    started = time.process_time() if started is None else started
    me = os.getpid()
    seen: dict[int, Sample] = {}
    for proc in psutil.process_iter():
        if only is not None and proc.pid != me and proc.pid not in only:
            continue
        part = _part(proc, me)
        if part is None:
            continue
        try:
            times = proc.cpu_times()
            ppid = proc.ppid()
        except (psutil.Error, OSError):
            continue
        seconds = times.user + times.system
        if part == GENERATOR:
            seconds -= _sampling + (time.process_time() - started)
        else:  # the generator's children are the stack, counted as themselves
            seconds += times.children_user + times.children_system
        seen[proc.pid] = Sample(part, seconds, ppid)
    _sampling += time.process_time() - started
    return seen


def spent(before: dict[int, Sample], after: dict[int, Sample]) -> dict[str, float]:
    """CPU seconds per kind between two snapshots."""
    total = dict.fromkeys(PARTS, 0.0)
    for pid, now in after.items():
        then = before.get(pid)
        total[now.part] += now.seconds - (then.seconds if then is not None else 0.0)
    for pid, then in before.items():
        if pid not in after and then.ppid in after:  # reaped by a parent we sample: in its figure
            total[then.part] -= then.seconds
    return total


def server(seconds: dict[str, float]) -> float:
    """The server's part of ``spent``: every kind but the generator."""
    return sum(seconds[part] for part in SERVER_PARTS)


def postmasters(url: str) -> list[int]:
    """The pid of the PostgreSQL server behind ``url`` (its backends are its children)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT pg_backend_pid()").fetchone()
    try:
        return [psutil.Process(row[0]).ppid()] if row else []
    except psutil.Error:
        return []


class StackProcesses:
    """One benchmark's processes: its stack's (``stack.procs``, as ``harness/stack.Stack`` keeps
    them), its PostgreSQL's and its broker's (``roots``), and this process. Other stacks may run on
    the same machine: their processes must not count."""

    def __init__(self, stack: Any, roots: list[int]) -> None:
        self.stack = stack
        self.roots = roots

    def pids(self) -> set[int]:
        return tree([*self.roots, *(p.pid for p in self.stack.procs.values())])

    def snapshot(self) -> dict[int, Sample]:
        started = time.process_time()
        return snapshot(only=self.pids(), started=started)

    def web_memory(self) -> tuple[int, int]:
        """(RSS bytes, threads) of the stack's gunicorn processes (the gthread ones and, when the
        long-polls have their own, the gevent ones)."""
        rss = threads = 0
        roots = [proc.pid for name, proc in self.stack.procs.items() if name.startswith(("web", "waits"))]
        for pid in tree(roots):
            try:
                proc = psutil.Process(pid)
                rss += proc.memory_info().rss
                threads += proc.num_threads()
            except (psutil.Error, OSError):
                continue
        return rss, threads
