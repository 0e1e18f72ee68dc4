"""The import contracts of `make lint` (pyproject.toml, import-linter) hold on the project and
catch a violation planted in a copy of it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from libs.config import PROJECT_ROOT

LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=root,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the project's code and its contracts."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for folder in ("libs", "services", "harness", "tests", "bench"):
        shutil.copytree(PROJECT_ROOT / folder, tmp_path / folder, ignore=ignore)
    shutil.copy(PROJECT_ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_the_project_keeps_every_contract() -> None:
    result = _lint_imports(PROJECT_ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("path", "line", "contract"),
    [
        ("libs/rules/leak.py", "import libs.web\n", "The rules engine is pure"),
        ("libs/rules/leak.py", "import psycopg\n", "The rules engine is pure"),
        ("libs/games/leak.py", "import libs.eventstore\n", "The game interface is pure"),
        ("services/match/leak.py", "import libs.rules\n", "only through the game interface"),
        ("libs/contracts/leak.py", "import libs.eventstore\n", "contracts between services are standard"),
        ("services/match/domain/leak.py", "import flask\n", "Domain code imports no Flask"),
        ("services/match/leak.py", "import services.accounts.service\n", "never imports another service"),
        ("libs/bus/leak.py", "import services.match.store\n", "Shared libraries never import a service"),
        ("libs/line/leak.py", "import libs.config\n", "The line and the arena are pure rules"),
        ("libs/line/leak.py", "import flask\n", "The line and the arena are pure rules"),
        ("libs/arena/leak.py", "import psycopg\n", "The line and the arena are pure rules"),
        # a lower layer of libs reaching up, and a pure package reaching for a setting
        ("libs/db/leak.py", "import libs.kit.registry\n", "Layers of libs"),
        ("libs/eventstore/leak.py", "import libs.bus.relay\n", "Layers of libs"),
        ("libs/web/leak.py", "import libs.kit.web\n", "Layers of libs"),
        ("libs/rules/leak.py", "import libs.clock\n", "Layers of libs"),
        # the kit's declarations (imported by domain code) reaching for its run-time parts
        ("libs/kit/events.py", "import libs.kit.runtime\n", "Layers of the kit"),
        # circles: within a package of libs, and within a service
        ("libs/bus/topics.py", "import libs.bus.relay\n", "No import circle anywhere"),
        ("services/ratings/events.py", "import services.ratings.root\n", "No import circle anywhere"),
        # tests and benchmarks share the harness, never each other; the code never imports them
        ("bench/leak.py", "import tests.conftest\n", "Tests and benchmarks stay apart"),
        ("tests/leak.py", "import bench.bench_match\n", "Tests and benchmarks stay apart"),
        ("harness/leak.py", "import tests.integration.conftest\n", "Tests and benchmarks stay apart"),
        ("services/match/leak.py", "import harness.stack\n", "Tests and benchmarks stay apart"),
    ],
)
def test_a_planted_violation_breaks_its_contract(tree: Path, path: str, line: str, contract: str) -> None:
    """``line`` is added to ``path`` (a new module, or the end of an existing one)."""
    planted = tree / path
    planted.write_text((planted.read_text() if planted.exists() else "") + line)
    result = _lint_imports(tree)
    assert result.returncode != 0
    broken = [row for row in result.stdout.splitlines() if row.endswith("BROKEN")]
    assert any(contract in row for row in broken), result.stdout


def test_domain_modules_load_no_io_library() -> None:
    code = (
        "import sys, importlib\n"
        "from libs.kit import service_names\n"
        "for name in service_names():\n"
        "    for mod in ('domain', 'events'):\n"
        "        try: importlib.import_module(f'services.{name}.{mod}')\n"
        "        except ModuleNotFoundError as e:\n"
        "            if e.name != f'services.{name}.{mod}': raise\n"
        "import libs.rules\n"
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
