"""The import contracts of `make lint` (pyproject.toml, import-linter) hold on the project and
catch a violation planted in a copy of it."""

from __future__ import annotations

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
    for folder in ("libs", "services"):
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
        ("libs/contracts/leak.py", "import libs.eventstore\n", "contracts between services are standard"),
        ("services/match/domain/leak.py", "import flask\n", "Domain code imports no Flask"),
        ("services/match/leak.py", "import services.accounts.service\n", "never imports another service"),
        ("libs/bus/leak.py", "import services.match.store\n", "Shared libraries never import a service"),
    ],
)
def test_a_planted_violation_breaks_its_contract(tree: Path, path: str, line: str, contract: str) -> None:
    (tree / path).write_text(line)
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
