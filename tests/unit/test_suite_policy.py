"""How the suite runs (tests/conftest.py): in CI a skip fails unless its reason is allowed, and under
``make test`` (pytest-xdist, ``--dist loadgroup``) each group of e2e tests runs one at a time on one
worker."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from libs.config import PROJECT_ROOT

SAMPLE = """
import pytest

def test_runs():
    pass

@pytest.mark.skipif(True, reason="kubectl is not installed")
def test_needs_a_tool():
    pass

@pytest.mark.skipif(True, reason="syncfs is Linux's")
def test_needs_another_platform():
    pass

@pytest.mark.xfail(reason="known", strict=True)
def test_known_to_fail():
    assert False

"""


def _run(tmp_path: Path, ci: bool, *args: str) -> subprocess.CompletedProcess[str]:
    if not (tmp_path / "test_sample.py").exists():
        (tmp_path / "test_sample.py").write_text(SAMPLE)
    env = {k: v for k, v in os.environ.items() if k != "CI"} | ({"CI": "true"} if ci else {})
    env["PYTHONPATH"] = str(PROJECT_ROOT)
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # a quick start: only the project's conftest (and xdist)
    plugins = ["-p", "tests.conftest", "-p", "xdist.plugin", "-p", "no:cacheprovider"]
    return subprocess.run(
        [sys.executable, "-m", "pytest", *plugins, "-rA", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_outside_ci_a_skip_is_a_skip(tmp_path: Path) -> None:
    result = _run(tmp_path, ci=False)
    assert result.returncode == 0, result.stdout
    assert "1 passed, 2 skipped, 1 xfailed" in result.stdout


def test_in_ci_a_skip_for_a_missing_tool_fails_and_an_allowed_one_does_not(tmp_path: Path) -> None:
    result = _run(tmp_path, ci=True)
    assert result.returncode == 1, result.stdout
    assert "ERROR test_sample.py::test_needs_a_tool - skipped in CI" in result.stdout
    assert "kubectl is not installed (install it in .ci/run)" in result.stdout
    assert "SKIPPED [1] test_sample.py:11: syncfs is Linux's" in result.stdout
    assert "1 passed, 1 skipped, 1 xfailed, 1 error" in result.stdout


# One xdist run (2 workers, --dist loadgroup, as `make test`) shows both rules of the e2e groups: each
# test notes the worker it ran on and appends its module to that worker's order of tests.
NOTE = """
import os
import pytest
from pathlib import Path

def _note(name):
    worker = os.environ["PYTEST_XDIST_WORKER"]
    Path(name).write_text(worker)
    with open("order-" + worker, "a") as out:
        out.write(__name__.split(".")[-1] + "\\n")

@pytest.mark.parametrize("n", range({count}))
def test_one(n):
    _note(f"{prefix}-{{n}}")
"""


@pytest.fixture(scope="module")
def grouped(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tree after the run: 8 plain tests, a unit module of 20, and the two serial e2e groups of 4
    (test_stack, test_make_run): groups with fewer tests than the others."""
    root = tmp_path_factory.mktemp("grouped")
    (root / "test_sample.py").write_text(NOTE.format(count=8, prefix="plain"))
    (root / "tests" / "unit" / "deploy").mkdir(parents=True)
    (root / "tests" / "unit" / "deploy" / "test_many.py").write_text(NOTE.format(count=20, prefix="many"))
    (root / "tests" / "e2e").mkdir(parents=True)
    for module in ("test_stack", "test_make_run"):
        (root / "tests" / "e2e" / f"{module}.py").write_text(NOTE.format(count=4, prefix=module))
    result = _run(root, False, "-n", "2", "--dist", "loadgroup", "-q")
    assert result.returncode == 0, result.stdout
    return root


def test_each_serial_group_runs_on_one_worker_and_the_rest_spread(grouped: Path) -> None:
    stacks = {(grouped / f"test_stack-{n}").read_text() for n in range(4)}
    make_run = {(grouped / f"test_make_run-{n}").read_text() for n in range(4)}
    every = stacks | make_run | {(grouped / f"plain-{n}").read_text() for n in range(8)}
    assert len(stacks) == 1 and len(make_run) == 1 and len(every) == 2, (stacks, make_run, every)


def test_the_serial_groups_start_first_though_other_modules_have_more_tests(grouped: Path) -> None:
    """xdist hands out the units with most tests first; the e2e groups have few tests but last the
    longest, so they must start at once, not behind a group of many short tests."""
    firsts = sorted(path.read_text().split()[0] for path in grouped.glob("order-gw*"))
    assert firsts == ["test_make_run", "test_stack"], firsts
