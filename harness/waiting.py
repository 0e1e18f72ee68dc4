"""Waiting on a condition instead of sleeping a fixed time: the wait ends as soon as the
condition holds, and a failure says what was awaited."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

import psutil

T = TypeVar("T")


def wait_until(
    probe: Callable[[], T], timeout: float, what: str | Callable[[], str], interval: float = 0.05
) -> T:
    """Poll ``probe`` until it returns something truthy; fail after ``timeout`` seconds. ``what``
    names what is awaited, or computes it when the wait fails (e.g. from a log)."""
    deadline = time.monotonic() + timeout
    last: T = probe()
    while not last:
        if time.monotonic() > deadline:
            said = what() if callable(what) else what
            raise AssertionError(f"timed out after {timeout}s waiting for {said} (last: {last!r})")
        time.sleep(interval)
        last = probe()
    return last


def still_running(processes: list[psutil.Process], timeout: float = 10.0) -> list[psutil.Process]:
    """The ``processes`` still running (zombies are gone) once all are gone or ``timeout`` seconds
    passed: a process told to stop is awaited, not given a fixed time."""

    def left() -> list[psutil.Process]:
        return [p for p in processes if p.is_running() and _alive(p)]

    deadline = time.monotonic() + timeout
    while (running := left()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return running


def _alive(process: psutil.Process) -> bool:
    try:
        return process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
