"""How fast this machine runs Python at the moment, so that timings taken at different moments can be
compared (docs/testing.md, "The machine's speed").

The machine is a virtual one whose share of its host moves: the same suite on the same code took 638
s of CPU on one afternoon's machine and 1,251 s on that evening's, and a fixed loop took 0.95 s or
1.8 s half an hour apart. A wall time alone says little; beside the reference figure of the same
moment it can be read. The reference is CPU time (``time.process_time``) of a fixed standard-library
workload, the best of three rounds, so what else runs on the machine lengthens it only as far as it
slows this process's own instructions (a host that is shared, a clock that is throttled).

As a pytest plugin (``-p harness.machine``, listed in tests/conftest.py) it prints the reference in
the run's header and again, measured after the last test, in its closing summary.
"""

from __future__ import annotations

import json
import time
from typing import Any

ROUNDS = 3


def _workload() -> int:
    """Integer arithmetic, dict and list churn and a JSON round trip: what a Python service and its
    tests spend their time on, with no I/O and no dependence on this project's code."""
    total = 0
    table: dict[int, int] = {}
    for i in range(300_000):
        total = (total + i * i) % 1_000_003
        table[i % 1024] = total
    rows = [{"id": i, "name": f"p{i}", "score": table[i % 1024]} for i in range(20_000)]
    decoded = json.loads(json.dumps(rows))
    return total + sum(row["score"] for row in decoded)


def reference_ms() -> float:
    """CPU milliseconds the workload takes at best of ``ROUNDS`` rounds, now, on this machine."""
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.process_time()
        _workload()
        best = min(best, time.process_time() - start)
    return best * 1000


# -- as a pytest plugin ------------------------------------------------------------------------------


def _is_xdist_worker(config: Any) -> bool:
    return hasattr(config, "workerinput")


def pytest_configure(config: Any) -> None:
    if not _is_xdist_worker(config):
        config._machine_reference_at_start = reference_ms()


def pytest_report_header(config: Any) -> str | None:
    start = getattr(config, "_machine_reference_at_start", None)
    if start is None:
        return None
    return f"machine speed: reference workload {start:.0f} ms of CPU (harness/machine.py)"


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: Any) -> None:
    start = getattr(config, "_machine_reference_at_start", None)
    if start is None:
        return
    terminalreporter.write_line(
        f"machine speed: reference workload {start:.0f} ms of CPU at the start, "
        f"{reference_ms():.0f} ms at the end (harness/machine.py)"
    )
