"""The import contracts of `make lint` (pyproject.toml, import-linter) hold on the project and
catch each violation planted in a copy of it.

All the plants go into one copy, checked by one ``lint-imports`` run (not one run per plant: 22
runs were 100 s of CPU). They cannot mask each other: each plant's test finds, under its contract,
the import it planted (module, imported name and line, as import-linter reports it), not merely the
contract broken; a plant no longer detected fails its own test, whatever the other plants break.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from libs.config import PROJECT_ROOT

LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"

# (file, imported module, contract): ``import <imported>`` is added to the file (a new module, or
# the end of an existing one).
PLANTS = [
    ("libs/games/leak.py", "libs.eventstore", "The game family is pure"),
    ("libs/games/sdk/leak.py", "kafka", "The game family is pure"),
    ("libs/contracts/leak.py", "libs.eventstore", "contracts between services are standard"),
    ("services/match/domain/leak.py", "flask", "Domain code imports no Flask"),
    ("services/match/leak.py", "services.accounts.service", "never imports another service"),
    ("libs/bus/leak.py", "services.match.store", "Shared libraries never import a service"),
    ("libs/eventstore/leak.py", "services.match.repository", "The event store is generic"),
    ("libs/eventstore/memory.py", "libs.games.registry", "The event store is generic"),
    # the games: none imports another, each only the SDK, the interface and the standard library
    ("libs/games/arcana/leak.py", "libs.games.line", "The games are independent of each other"),
    ("libs/games/line/leak.py", "libs.games.arena.flow", "The games are independent of each other"),
    ("libs/games/arena/leak.py", "libs.games.arcana.cards", "The games are independent of each other"),
    ("libs/games/arcana/leak.py", "libs.web", "Games and their SDK import only"),
    ("libs/games/arcana/leak.py", "psycopg", "Games and their SDK import only"),
    ("libs/games/line/leak.py", "libs.config", "Games and their SDK import only"),
    ("libs/games/line/leak.py", "flask", "Games and their SDK import only"),
    ("libs/games/arena/leak.py", "libs.contracts.base", "Games and their SDK import only"),
    ("libs/games/arena/leak.py", "libs.games.registry", "Games and their SDK import only"),
    ("libs/games/sdk/leak.py", "requests", "Games and their SDK import only"),
    ("libs/games/sdk/leak.py", "libs.games.arcana.engine", "The games' SDK imports no game"),
    ("libs/games/sdk/plumbing.py", "libs.games.line", "The games' SDK imports no game"),
    ("libs/games/sdk/rng.py", "libs.games.arena.game", "The games' SDK imports no game"),
    # no service imports a game (the match service hosts them through the registry)
    ("services/match/leak.py", "libs.games.arcana", "A service never imports a game"),
    ("services/ratings/leak.py", "libs.games.line.catalog", "A service never imports a game"),
    ("services/economy/domain/leak.py", "libs.games.arena", "A service never imports a game"),
    # a lower layer of libs reaching up, and a pure package reaching for a setting
    ("libs/db/leak.py", "libs.kit.registry", "Layers of libs"),
    ("libs/eventstore/leak.py", "libs.bus.relay", "Layers of libs"),
    ("libs/web/leak.py", "libs.kit.web", "Layers of libs"),
    ("libs/games/arcana/leak.py", "libs.clock", "Layers of libs"),
    # the codec, below the contracts and the games that read their types through it
    ("libs/codec/leak.py", "psycopg", "The codec is pure"),
    ("libs/codec/kinds.py", "libs.contracts.base", "Layers of libs"),
    # the kit's declarations (imported by domain code) reaching for its run-time parts
    ("libs/kit/events.py", "libs.kit.runtime", "Layers of the kit"),
    # circles: within a package of libs, and within a service
    ("libs/bus/topics.py", "libs.bus.relay", "No import circle anywhere"),
    ("services/ratings/events.py", "services.ratings.root", "No import circle anywhere"),
    # tests and benchmarks share the harness, never each other; the code never imports them
    ("bench/leak.py", "tests.conftest", "Tests and benchmarks stay apart"),
    ("tests/leak.py", "bench.bench_match", "Tests and benchmarks stay apart"),
    ("harness/leak.py", "tests.integration.conftest", "Tests and benchmarks stay apart"),
    ("services/match/leak.py", "harness.stack", "Tests and benchmarks stay apart"),
]


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=root,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def _sections(report: str) -> dict[str, str]:
    """Each broken contract's name -> its part of the report (the chains or cycles it found)."""
    _, _, details = report.partition("Broken contracts\n----------------\n")
    rows = details.splitlines()
    starts = [
        i
        for i in range(len(rows) - 1)
        if rows[i] and re.fullmatch(r"-+", rows[i + 1]) and len(rows[i + 1]) == len(rows[i])
    ]
    return {
        rows[s]: "\n".join(rows[s + 2 : e]) for s, e in zip(starts, [*starts[1:], len(rows)], strict=True)
    }


@pytest.fixture(scope="module")
def planted(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[subprocess.CompletedProcess[str], dict[int, int]]:
    """One copy of the project's code and its contracts with every plant, checked once: the result
    and each plant's line number in its file."""
    root = tmp_path_factory.mktemp("tree")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for folder in ("libs", "services", "harness", "tests", "bench"):
        shutil.copytree(PROJECT_ROOT / folder, root / folder, ignore=ignore)
    shutil.copy(PROJECT_ROOT / "pyproject.toml", root / "pyproject.toml")
    lines = {}
    for index, (path, imported, _) in enumerate(PLANTS):
        file = root / path
        text = file.read_text() if file.exists() else ""
        assert not text or text.endswith("\n"), path
        file.write_text(text + f"import {imported}\n")
        lines[index] = text.count("\n") + 1
    return _lint_imports(root), lines


def test_the_project_keeps_every_contract() -> None:
    result = _lint_imports(PROJECT_ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    "index",
    range(len(PLANTS)),
    ids=[f"{path}-import {imported}-{contract}" for path, imported, contract in PLANTS],
)
def test_a_planted_violation_breaks_its_contract(
    planted: tuple[subprocess.CompletedProcess[str], dict[int, int]], index: int
) -> None:
    """The contract is reported broken by the planted import itself: the import (its line) is
    under the contract's name; a circle, as the package whose modules import each other in a circle
    through the planted import."""
    result, lines = planted
    path, imported, contract = PLANTS[index]
    assert result.returncode != 0, result.stdout + result.stderr
    broken = [
        row for row in result.stdout.splitlines() if re.search(r" BROKEN( \(\d+ ignored imports?\))?$", row)
    ]
    assert any(contract in row for row in broken), result.stdout
    [found] = [text for name, text in _sections(result.stdout).items() if contract in name]
    module = path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    if contract.startswith("No import circle"):
        package, _, name = module.rpartition(".")
        sibling = imported.removeprefix(package + ".").split(".")[0]
        cycles = found.split("No cycles are allowed in ")
        [circle] = [c for c in cycles if c.startswith(f"{package}.\n")]
        edges = re.findall(r"^- \.(\w+) -> \.(\w+) \(", circle, re.MULTILINE)
        assert (name, sibling) in edges or (sibling, name) in edges, circle
    else:
        chains = re.findall(
            rf"^-\s+{re.escape(module)} -> {re.escape(imported)} \((l\.[^)]*)\)", found, re.MULTILINE
        )
        assert any(f"l.{lines[index]}" in re.split(r", ", chain) for chain in chains), (
            module,
            imported,
            found,
        )


def test_domain_modules_load_no_io_library() -> None:
    code = (
        "import sys, importlib\n"
        "from libs.kit import service_names\n"
        "for name in service_names():\n"
        "    for mod in ('domain', 'events'):\n"
        "        try: importlib.import_module(f'services.{name}.{mod}')\n"
        "        except ModuleNotFoundError as e:\n"
        "            if e.name != f'services.{name}.{mod}': raise\n"
        "import libs.games.arcana\n"
        "io = ('flask', 'psycopg', 'psycopg_pool', 'kafka', 'celery')\n"
        "print(sorted(m for m in io if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=PROJECT_ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"


def test_the_web_app_loads_no_kafka_client() -> None:
    """Every service's app (its blueprints, root and definition) is built without loading Kafka's
    client: a web process needs none (``libs/bus/__init__`` loads its modules on first use)."""
    code = (
        "import sys\n"
        "import services.wsgi\n"
        "services.wsgi.build_app()\n"
        "assert 'services.match.api' in sys.modules, sorted(sys.modules)\n"
        "kafka = ('kafka', 'libs.bus.consumer', 'libs.bus.relay')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'kafka' or m in kafka))\n"
    )
    env = {**os.environ, "DATABASE_URL": "postgresql://nobody@127.0.0.1:1/none"}  # never connected to
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"
