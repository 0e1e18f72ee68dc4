"""A liveness signal for the background processes (relays, consumers, Celery worker and beat).

Each loop of a process calls ``beat(name)`` once per pass. When ``ARCANA_HEARTBEAT_PATH`` is set,
the file is rewritten (at most every ``WRITE_EVERY`` seconds) only while *every* loop that ever
beat has beaten within ``STALE`` seconds: one stuck loop among several threads stops the file
too. The pod's liveness probe is an exec of ``python -m libs.bus.heartbeat FILE --max-age S``,
which fails once the file is older than S, so Kubernetes restarts a process that hangs (a loop
waiting out a broker or database outage still passes: it retries, and beats, in its loop).
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from pathlib import Path

from libs import config

ENV = config.HEARTBEAT_PATH.name
WRITE_EVERY = 5.0
STALE = 60.0

_lock = threading.Lock()
_last: dict[str, float] = {}
_written = 0.0


def beat(name: str, now: float | None = None) -> None:
    """Loop ``name`` made a pass; refresh the heartbeat file when every loop is fresh."""
    global _written
    now = time.monotonic() if now is None else now
    path = config.HEARTBEAT_PATH.get()
    with _lock:
        _last[name] = now
        if not path or now - _written < WRITE_EVERY:
            return
        if any(now - seen > STALE for seen in _last.values()):
            return
        _written = now
    write(Path(path))


def write(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(f"{time.time():.3f}\n")
    os.replace(tmp, path)


def age(path: Path, now: float | None = None) -> float | None:
    """Seconds since the file was last written; None when there is none."""
    try:
        written = path.stat().st_mtime
    except FileNotFoundError:
        return None
    return (time.time() if now is None else now) - written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m libs.bus.heartbeat", description="liveness check")
    parser.add_argument("file", type=Path)
    parser.add_argument("--max-age", type=float, required=True, help="seconds")
    args = parser.parse_args(argv)
    seconds = age(args.file)
    if seconds is None:
        print(f"{args.file}: no heartbeat yet", file=sys.stderr)
        return 1
    if seconds > args.max_age:
        print(f"{args.file}: last heartbeat {seconds:.0f} s ago (> {args.max_age:.0f} s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
