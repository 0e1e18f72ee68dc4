"""What an idle stack costs: one stack started as the e2e tests start it (scratch PostgreSQL, the
dev broker, ``harness.stack.Stack``), left alone to settle, then its CPU per process kind sampled
over a window (``harness.cpu``). ``python -m harness.idle [settle-seconds] [window-seconds]``."""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from harness import cpu
from harness.stack import Stack
from libs.devstack.broker import DevBroker
from libs.devstack.ports import free_port
from libs.devstack.postgres import EmbeddedPostgres


def measure(root: Path, settle: float, window: float) -> dict[str, float]:
    """CPU seconds per kind over ``window`` seconds of an idle stack, per second (cores)."""
    pg = EmbeddedPostgres(root / "pg", free_port(), durable=False)
    broker = DevBroker(free_port(), root / "broker.log")
    url = pg.start()
    try:
        broker.start()
        with Stack(url, broker.bootstrap, root / "stack") as stack:
            stack.wait_ready()
            procs = cpu.StackProcesses(stack, [pid for pid in (pg.postmaster_pid(),) if pid])
            procs.roots.append(broker.process.pid)  # type: ignore[union-attr]
            time.sleep(settle)
            before, started = procs.snapshot(), time.monotonic()
            time.sleep(window)
            after, elapsed = procs.snapshot(), time.monotonic() - started
        return {part: seconds / elapsed for part, seconds in cpu.spent(before, after).items()}
    finally:
        broker.stop()
        pg.stop()


def main() -> None:
    settle, window = (float(a) for a in [*sys.argv[1:], "20", "45"][:2])
    with tempfile.TemporaryDirectory(prefix="idle-") as tmp:
        cores = measure(Path(tmp), settle, window)
    for part in cpu.SERVER_PARTS:
        print(f"{part:14} {cores[part]:.4f}")
    print(f"{'total':14} {cpu.server(cores):.4f}")


if __name__ == "__main__":
    main()
