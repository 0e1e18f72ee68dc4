"""The supervisor of `make run`: restarts with a delay that doubles per crash in a row, starts a new
series after a stable run, counts a failed restart as a crash, restarts processes before the
infrastructure when they died together, and stops processes before the infrastructure. Units are
fakes; a fake clock moves time (nothing sleeps)."""

from __future__ import annotations

from libs.devstack.supervisor import RestartPolicy, Supervisor


class FakeUnit:
    def __init__(
        self, name: str, journal: list[str], failing_starts: int = 0, started: list[str] | None = None
    ) -> None:
        self.name = name
        self.journal = journal
        self.running = False
        self.failing_starts = failing_starts
        self.starts = 0
        self.started = started if started is not None else []

    def start(self) -> None:
        self.starts += 1
        self.started.append(self.name)
        if self.starts > 1 and self.failing_starts > 0:
            self.failing_starts -= 1
            raise RuntimeError("cannot start yet")
        self.running = True

    def alive(self) -> bool:
        return self.running

    def crash(self) -> None:
        self.running = False

    def describe(self) -> str:
        return "fake"

    def clean_up(self) -> None:
        self.journal.append(f"clean {self.name}")

    def request_stop(self) -> None:
        self.journal.append(f"signal {self.name}")

    def stop(self) -> None:
        self.journal.append(f"stop {self.name}")
        self.running = False


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _supervisor(clock: FakeClock) -> Supervisor:
    policy = RestartPolicy(initial=0.5, maximum=4.0, stable_after=30.0)
    return Supervisor(policy, say=lambda _: None, clock=clock)


def test_a_dead_unit_is_cleaned_up_and_started_again_only_after_its_delay() -> None:
    clock, journal = FakeClock(), []
    supervisor = _supervisor(clock)
    unit = FakeUnit("web", journal)
    supervisor.add(unit)
    clock.now += 60
    unit.crash()
    supervisor.check()
    assert journal == ["clean web"] and not unit.alive()
    clock.now += 0.4
    supervisor.check()
    assert not unit.alive()
    clock.now += 0.1
    supervisor.check()
    assert unit.alive() and supervisor.restarts() == {"web": 1}


def test_the_delay_doubles_per_crash_in_a_row_up_to_the_maximum_and_resets_after_a_stable_run() -> None:
    clock, journal = FakeClock(), []
    supervisor = _supervisor(clock)
    unit = FakeUnit("relay", journal)
    supervisor.add(unit)
    delays = []
    for _ in range(6):
        clock.now += 1  # crashes right after each start
        unit.crash()
        supervisor.check()
        crashed_at = clock.now
        while not unit.alive():
            clock.now += 0.25
            supervisor.check()
        delays.append(clock.now - crashed_at)
    assert delays == [0.5, 1.0, 2.0, 4.0, 4.0, 4.0]
    clock.now += 31  # ran long enough: the next crash starts a new series
    unit.crash()
    supervisor.check()
    clock.now += 0.5
    supervisor.check()
    assert unit.alive()


def test_a_failed_restart_counts_as_a_crash_and_is_tried_again_later() -> None:
    clock, journal = FakeClock(), []
    supervisor = _supervisor(clock)
    unit = FakeUnit("postgres", journal, failing_starts=2)
    supervisor.add(unit)
    clock.now += 60
    unit.crash()
    for _ in range(40):
        supervisor.check()
        clock.now += 0.25
    assert unit.alive() and unit.starts == 4 and supervisor.restarts() == {"postgres": 1}


def test_units_that_died_together_restart_the_last_started_first() -> None:
    """After a crash of everything the processes start before the infrastructure, whose start
    blocks until it is ready (they boot meanwhile and wait for it)."""
    clock, journal, started = FakeClock(), [], []
    supervisor = _supervisor(clock)
    units = [FakeUnit(name, journal, started=started) for name in ("postgres", "kafka", "web", "relay")]
    for unit in units:
        supervisor.add(unit)
    clock.now += 60
    for unit in units:
        unit.crash()
    supervisor.check()
    started.clear()
    clock.now += 0.5
    supervisor.check()
    assert started == ["relay", "web", "kafka", "postgres"] and all(u.alive() for u in units)


def test_stop_signals_every_unit_then_stops_the_last_started_first() -> None:
    clock, journal = FakeClock(), []
    supervisor = _supervisor(clock)
    for name in ("postgres", "kafka", "web", "relay"):
        supervisor.add(FakeUnit(name, journal))
    supervisor.stop()
    assert journal == [
        "signal postgres",
        "signal kafka",
        "signal web",
        "signal relay",
        "stop relay",
        "stop web",
        "stop kafka",
        "stop postgres",
    ]


def test_a_unit_that_fails_to_stop_does_not_keep_the_others_running() -> None:
    clock, journal, said = FakeClock(), [], []
    supervisor = Supervisor(say=said.append, clock=clock)
    broken, fine = FakeUnit("kafka", journal), FakeUnit("postgres", journal)
    supervisor.add(fine)
    supervisor.add(broken)

    def fail() -> None:
        raise RuntimeError("pg_ctl failed")

    broken.stop = fail  # type: ignore[method-assign]
    supervisor.stop()
    assert "stop postgres" in journal and any("kafka: stopping failed" in line for line in said)
