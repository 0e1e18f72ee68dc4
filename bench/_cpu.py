"""CPU time spent by each part of the stack during a benchmark phase (user + system seconds).

The parts are told apart by command line: ``web`` (gunicorn), ``celery``, ``relay``,
``consumers``, ``postgres`` (the embedded server's processes), ``broker`` (Tansu) and ``client``
(this benchmark process). A process that starts inside the phase counts whole; one that ends
inside it is not counted.
"""

from __future__ import annotations

import os
from typing import Any

import psutil

from libs.devstack.postgres import SYSTEM_USER

PARTS = ("client", "web", "postgres", "relay", "celery", "consumers", "broker")


def _part(proc: psutil.Process, me: int) -> str | None:
    if proc.pid == me:
        return "client"
    try:
        if proc.username() == SYSTEM_USER:
            return "postgres"
        line = " ".join(proc.cmdline())
    except (psutil.Error, OSError):
        return None
    for marker, part in (
        ("gunicorn", "web"),
        ("celery", "celery"),
        ("libs.kit.relay", "relay"),
        ("libs.kit.consume", "consumers"),
        ("tansu", "broker"),
    ):
        if marker in line:
            return part
    return None


def tree(roots: list[int]) -> set[int]:
    """The pids of ``roots`` and of all their descendants (to tell one stack from others on a
    shared machine: ``snapshot(only=...)``)."""
    pids: set[int] = set()
    for pid in roots:
        try:
            proc = psutil.Process(pid)
            pids.add(pid)
            pids.update(child.pid for child in proc.children(recursive=True))
        except (psutil.Error, OSError):
            continue
    return pids


def snapshot(only: set[int] | None = None) -> dict[int, tuple[str, float]]:
    """Every stack process (or only those of ``only``, and this one): pid → (part, CPU seconds so far)."""
    me = os.getpid()
    seen: dict[int, tuple[str, float]] = {}
    for proc in psutil.process_iter():
        if only is not None and proc.pid != me and proc.pid not in only:
            continue
        part = _part(proc, me)
        if part is None:
            continue
        try:
            times = proc.cpu_times()
        except (psutil.Error, OSError):
            continue
        seen[proc.pid] = (part, times.user + times.system)
    return seen


def spent(before: dict[int, tuple[str, float]], after: dict[int, tuple[str, float]]) -> dict[str, float]:
    """CPU seconds per part between two snapshots."""
    total = dict.fromkeys(PARTS, 0.0)
    for pid, (part, cpu) in after.items():
        total[part] += cpu - (before[pid][1] if pid in before else 0.0)
    return total


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

    def snapshot(self) -> dict[int, tuple[str, float]]:
        return snapshot(only=self.pids())

    def web_memory(self) -> tuple[int, int]:
        """(RSS bytes, threads) of the stack's gunicorn processes (the gthread one and, when the
        long-polls have their own, the gevent one)."""
        rss = threads = 0
        roots = [proc.pid for name in ("web", "waits") if (proc := self.stack.procs.get(name))]
        for pid in tree(roots):
            try:
                proc = psutil.Process(pid)
                rss += proc.memory_info().rss
                threads += proc.num_threads()
            except (psutil.Error, OSError):
                continue
        return rss, threads
