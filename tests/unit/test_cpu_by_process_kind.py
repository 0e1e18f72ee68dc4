"""The benchmarks' CPU accounting (``harness/cpu.py``): each process counted under its kind, the
generator apart, and a child that lived and died between two samples counted in its parent's kind
(PostgreSQL's short-lived backends; ``time`` never counted them)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from harness import cpu

# A stand-in for a stack process: its command line names the consumers' module, so it is of that
# kind. On each line read it forks a child that spins for 0.3 s of CPU, reaps it and says "reaped".
_PARENT = """
import os, sys, time
for _ in sys.stdin:
    pid = os.fork()
    if pid == 0:
        end = time.process_time() + 0.3
        while time.process_time() < end:
            pass
        os._exit(0)
    os.waitpid(pid, 0)
    print("reaped", flush=True)
"""


@pytest.fixture
def consumer_like() -> Iterator[subprocess.Popen[str]]:
    proc = subprocess.Popen(
        [sys.executable, "-c", _PARENT, "libs.kit.consume"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        yield proc
    finally:
        proc.kill()
        proc.wait()


def _child_spins(proc: subprocess.Popen[str]) -> None:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("go\n")
    proc.stdin.flush()
    assert proc.stdout.readline().strip() == "reaped"


def test_a_child_that_lived_between_two_samples_counts_in_its_parents_kind(
    consumer_like: subprocess.Popen[str],
) -> None:
    _child_spins(consumer_like)  # the interpreter has started: its own start-up is before the phase
    before = cpu.snapshot(only={consumer_like.pid})
    _child_spins(consumer_like)
    spent = cpu.spent(before, cpu.snapshot(only={consumer_like.pid}))

    assert before[consumer_like.pid].part == "consumers"
    assert spent["consumers"] >= 0.25  # the child's 0.3 s, which no sample ever saw alive
    assert cpu.server(spent) == pytest.approx(sum(spent[p] for p in cpu.SERVER_PARTS))


def test_the_generator_is_counted_apart_from_the_server() -> None:
    before = cpu.snapshot(only=set())
    end = time.process_time() + 0.2
    while time.process_time() < end:
        pass
    spent = cpu.spent(before, cpu.snapshot(only=set()))

    assert spent[cpu.GENERATOR] >= 0.15  # /proc counts in ticks of 10 ms: a little less may show
    assert cpu.server(spent) == 0.0


def test_a_process_gone_is_subtracted_only_when_its_parent_reaped_it_into_its_own_figure() -> None:
    before = {
        1: cpu.Sample("postgres", 10.0, 0),  # the postmaster
        2: cpu.Sample("postgres", 3.0, 1),  # a backend that will exit, reaped by the postmaster
        3: cpu.Sample("web", 5.0, 99),  # a process whose parent is not sampled
    }
    after = {
        1: cpu.Sample("postgres", 10.0 + 4.0 + 1.0, 0),  # its own 1 s, and the backend's whole 4 s
        4: cpu.Sample("relays", 2.0, 77),  # started inside the phase: counted whole
    }

    spent = cpu.spent(before, after)

    assert spent["postgres"] == pytest.approx(2.0)  # 1 s of the postmaster, 1 s more of the backend
    assert spent["web"] == 0.0  # gone, and nobody sampled reaped it: neither added nor subtracted
    assert spent["relays"] == pytest.approx(2.0)
