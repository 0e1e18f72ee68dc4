"""Several loops in threads of one process (``libs.bus.process.run_in_threads``): the relays of
every service in one process, the consumers of every service in another. They run until the stop
event; one that ends on its own ends them all and the process, with a non-zero status."""

from __future__ import annotations

import threading

import pytest

from libs.bus.process import run_in_threads


class Loop:
    """A loop that runs until the stop event, or until told to fail or to return."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.stopped = threading.Event()
        self.fail = threading.Event()
        self.leave = threading.Event()
        self.thread: threading.Thread | None = None

    def __call__(self, stop: threading.Event) -> None:
        self.thread = threading.current_thread()
        self.started.set()
        try:
            while not stop.wait(0.01):
                if self.fail.is_set():
                    raise RuntimeError("broken")
                if self.leave.is_set():
                    return
        finally:
            self.stopped.set()


def _in_background(loops: dict[str, Loop], stop: threading.Event) -> tuple[threading.Thread, list[object]]:
    outcome: list[object] = []

    def target() -> None:
        try:
            run_in_threads(loops, stop)
            outcome.append("returned")
        except SystemExit as exc:
            outcome.append(exc)

    runner = threading.Thread(target=target)
    runner.start()
    for loop in loops.values():
        assert loop.started.wait(10)
    return runner, outcome


def test_every_loop_runs_in_a_thread_of_its_own_until_the_stop_event() -> None:
    loops = {"relay-a": Loop(), "relay-b": Loop(), "relay-c": Loop()}
    stop = threading.Event()
    runner, outcome = _in_background(loops, stop)
    assert len({loop.thread for loop in loops.values()}) == 3
    assert {loop.thread.name for loop in loops.values() if loop.thread} == set(loops)
    assert not any(loop.stopped.is_set() for loop in loops.values())

    stop.set()
    runner.join(10)
    assert outcome == ["returned"]
    assert all(loop.stopped.is_set() for loop in loops.values())


@pytest.mark.parametrize("how", ["fail", "leave"])
def test_a_loop_that_ends_on_its_own_stops_the_others_and_the_process_ends_non_zero(how: str) -> None:
    loops = {"a": Loop(), "b": Loop(), "c": Loop()}
    stop = threading.Event()
    runner, outcome = _in_background(loops, stop)

    getattr(loops["b"], how).set()
    runner.join(30)
    assert not runner.is_alive()
    [exit_] = outcome
    assert isinstance(exit_, SystemExit)
    assert exit_.code not in (0, None)  # a message: Python exits with status 1
    assert "b" in str(exit_.code)
    assert stop.is_set()
    assert all(loop.stopped.is_set() for loop in loops.values())
