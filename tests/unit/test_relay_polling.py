"""The relay's polling schedule: at once after a full page, every poll_interval while events keep
coming, and a wait that doubles up to idle_max while nothing is new (a quiet service's relay
costs about one step a second instead of five)."""

from __future__ import annotations

import threading
from collections.abc import Iterator

from libs.bus.relay import OutboxRelay
from libs.eventstore import EventStore


class RecordingStop(threading.Event):
    """A stop event that records how long the loop asked to wait, and never sleeps."""

    def __init__(self) -> None:
        super().__init__()
        self.waits: list[float] = []

    def wait(self, timeout: float | None = None) -> bool:
        self.waits.append(0.0 if timeout is None else timeout)
        return self.is_set()


class ScriptedRelay(OutboxRelay):
    """A relay whose steps publish the given numbers of events; stops after the last."""

    def __init__(self, published: list[int], stop: RecordingStop) -> None:
        super().__init__(
            EventStore(None, "unused"),  # type: ignore[arg-type]
            "scripted",
            "127.0.0.1:1",
            batch_size=100,
            poll_interval=0.2,
            idle_max=1.0,
        )
        self.steps: Iterator[int] = iter(published)
        self.stopper = stop

    def step(self) -> int:
        try:
            return next(self.steps)
        except StopIteration:
            self.stopper.set()
            return 100


def waits_for(published: list[int]) -> list[float]:
    stop = RecordingStop()
    ScriptedRelay(published, stop).run(stop)
    return stop.waits


def test_a_full_page_is_followed_at_once_and_a_partial_one_after_the_poll_interval() -> None:
    assert waits_for([100, 100, 7]) == [0.2]


def test_idle_polls_double_up_to_idle_max_and_events_bring_back_the_poll_interval() -> None:
    waits = waits_for([0, 0, 0, 0, 0, 3, 0])
    nominal = [0.2, 0.4, 0.8, 1.0, 1.0, 0.2, 0.2]
    assert len(waits) == len(nominal)
    for got, expected in zip(waits, nominal, strict=True):
        assert expected * 0.8 <= got <= expected * 1.2  # the backoff's jitter
