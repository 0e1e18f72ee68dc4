"""The machine-speed reference: the best of its rounds, printed at the start and the end of a run."""

from __future__ import annotations

import itertools

import pytest

from harness import machine


def test_the_reference_is_the_fastest_round(monkeypatch: pytest.MonkeyPatch) -> None:
    # process_time read before and after each round: rounds of 0.30, 0.12 and 0.20 s of CPU
    readings = iter([1.0, 1.30, 2.0, 2.12, 3.0, 3.20])
    monkeypatch.setattr(machine.time, "process_time", lambda: next(readings))
    monkeypatch.setattr(machine, "_workload", lambda: 0)
    assert machine.reference_ms() == pytest.approx(120.0)


def test_a_run_prints_the_reference_at_its_start_and_its_end(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    figures = itertools.count(101)
    monkeypatch.setattr(machine, "reference_ms", lambda: float(next(figures)))
    pytester.makepyfile("def test_nothing():\n    pass\n")
    result = pytester.runpytest_inprocess("-p", "harness.machine", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(
        [
            "machine speed: reference workload 101 ms of CPU (harness/machine.py)",
            "*machine speed: reference workload 101 ms of CPU at the start, 102 ms at the end*",
        ]
    )
