"""Where a command's CPU goes on this machine, by kind of process: ``python -m harness.suite_cpu --
make test`` (``make test-cpu``) runs the command, samples every process of the machine from /proc
twice a second while it runs, and prints the CPU seconds each kind used (the suite's pytest workers,
chromium, the stacks' web, waits, consumers, relays, Celery, PostgreSQL, the broker…) beside the
machine's busy and idle CPU over the same wall time (/proc/stat).

A process counts from its first sample to its last: one that lived less than half a second is
missed, and what the machine did outside any process (the kernel's own work) is only in the busy
total; the table's sum is therefore a little under it (docs/testing.md, "Twelfth pass").
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

from harness import cpu

PROC = Path("/proc")
TICKS = os.sysconf("SC_CLK_TCK")
INTERVAL = 0.5
# The first marker found in a command line names its kind (order matters: an xdist worker's command
# line hides pytest). A stack's processes are named as the benchmarks name them (harness/cpu.py).
KINDS = (
    ("exec(eval(sys.stdin", "pytest worker"),
    ("pytest", "pytest"),
    ("chrom", "chromium"),
    ("postgres", "postgres"),
    *cpu.MARKERS,
    ("kubectl", "kubectl"),
    ("python", "other python"),
)


def kind_of(command_line: str, kinds: tuple[tuple[str, str], ...] = KINDS) -> str:
    line = f" {command_line} "  # markers such as " beat " may stand at either end
    return next((kind for marker, kind in kinds if marker in line), "other")


def _read(path: Path) -> str | None:
    try:
        return path.read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return None


def _cpu_ticks(pid: int) -> int | None:
    stat = _read(PROC / str(pid) / "stat")
    if stat is None:
        return None
    fields = stat[stat.rfind(")") + 2 :].split()
    return int(fields[11]) + int(fields[12])  # utime + stime, the process's own


def machine_ticks() -> tuple[int, int]:
    """(busy, idle) ticks of all the machine's cores so far."""
    cpu = (PROC / "stat").read_text().split("\n", 1)[0].split()[1:]
    user, nice, system, idle, iowait, irq, softirq, steal = (int(x) for x in cpu[:8])
    return user + nice + system + irq + softirq + steal, idle + iowait


class Sampler:
    """Every process's CPU since the sampler started, by kind, sampled every ``INTERVAL`` seconds."""

    def __init__(self, kinds: tuple[tuple[str, str], ...] = KINDS) -> None:
        self.kinds = kinds
        self.at_start: dict[int, int] = {}
        self.last: dict[int, tuple[str, int]] = {}
        self.ended: Counter[str] = Counter()
        self._stop = threading.Event()
        for pid in self._pids():
            ticks = _cpu_ticks(pid)
            if ticks is not None:
                self.at_start[pid] = ticks
        self._thread = threading.Thread(target=self._run, daemon=True)

    @staticmethod
    def _pids() -> list[int]:
        return [int(p.name) for p in PROC.iterdir() if p.name.isdigit()]

    def _sample(self) -> None:
        seen = set()
        for pid in self._pids():
            ticks = _cpu_ticks(pid)
            if ticks is None or pid == os.getpid():
                continue
            seen.add(pid)
            known = self.last.get(pid)
            if known is None:
                command_line = _read(PROC / str(pid) / "cmdline")
                if not command_line:
                    continue
                known = (kind_of(command_line, self.kinds), ticks)
            self.last[pid] = (known[0], ticks)
        for pid in [p for p in self.last if p not in seen]:
            kind, ticks = self.last.pop(pid)
            self.ended[kind] += ticks - self.at_start.get(pid, 0)

    def _run(self) -> None:
        while not self._stop.wait(INTERVAL):
            self._sample()

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> dict[str, float]:
        """CPU seconds by kind, largest first."""
        self._stop.set()
        self._thread.join()
        self._sample()
        totals = Counter(self.ended)
        for pid, (kind, ticks) in self.last.items():
            totals[kind] += ticks - self.at_start.get(pid, 0)
        return {kind: ticks / TICKS for kind, ticks in totals.most_common() if ticks > 0}


def main(argv: list[str]) -> int:
    command = argv[1:] if argv and argv[0] == "--" else argv
    if not command:
        print("usage: python -m harness.suite_cpu -- COMMAND [ARGS...]", file=sys.stderr)
        return 2
    sampler = Sampler()
    busy0, idle0 = machine_ticks()
    started = time.monotonic()
    sampler.start()
    code = subprocess.call(command)
    by_kind = sampler.stop()
    busy1, idle1 = machine_ticks()
    wall = time.monotonic() - started
    busy, idle = (busy1 - busy0) / TICKS, (idle1 - idle0) / TICKS
    share = busy / max(busy + idle, 1e-9)
    print(f"\nwall {wall:.1f} s; the machine busy {busy:.1f} CPU s, idle {idle:.1f} ({share:.0%} busy)")
    counted = sum(by_kind.values())
    for kind, seconds in by_kind.items():
        print(f"  {kind:14s} {seconds:7.1f} s  {seconds / counted:6.1%}")
    print(f"  {'counted':14s} {counted:7.1f} s")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
