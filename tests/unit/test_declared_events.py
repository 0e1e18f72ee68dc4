"""Each service emits only the event types it declares (libs/kit/emission.py): the project keeps
the rule, and a copy of it with planted violations (an undeclared event built, one declared outside
events.py, a domain twin of a declared one, a raw NewEvent) breaks it, naming each one."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from libs.config import PROJECT_ROOT


def _check(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "libs.kit.emission"],
        cwd=root,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_every_service_emits_only_its_declared_events() -> None:
    result = _check(PROJECT_ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "every service emits only declared events" in result.stdout


PLANTED_DOMAIN = """
from dataclasses import dataclass

from libs.contracts import MatchEnded
from libs.kit.events import IntegrationEvent, integration_event
from services.ratings import events


@integration_event("RatingLeaked")
@dataclass(frozen=True)
class RatingLeaked(IntegrationEvent):
    player_id: str


def leak(ended: MatchEnded) -> list[IntegrationEvent]:
    declared = events.RatingChanged("p", "m", 900, 920, "bronze", "bronze", 20, "win")  # fine
    return [declared, RatingLeaked("p"), MatchEnded(**ended.data())]
"""

PLANTED_TWIN = """
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class RatingChanged:
    player_id: str

    TYPE = "RatingChanged"

    def data(self) -> dict[str, Any]:
        return asdict(self)
"""

PLANTED_RAW = """
from libs.eventstore import NewEvent


def untyped() -> NewEvent:
    return NewEvent("RatingChanged", {"player_id": "p"})
"""


def test_planted_violations_are_each_reported(tmp_path: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for folder in ("libs", "services"):
        shutil.copytree(PROJECT_ROOT / folder, tmp_path / folder, ignore=ignore)
    (tmp_path / "services/ratings/domain/leak.py").write_text(PLANTED_DOMAIN)
    (tmp_path / "services/ratings/raw.py").write_text(PLANTED_RAW)
    (tmp_path / "services/ratings/domain/twin.py").write_text(PLANTED_TWIN)
    result = _check(tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    found = result.stdout.splitlines()
    assert found == [
        "services/ratings/domain/leak.py:11: event RatingLeaked declared outside services.ratings.events",
        "services/ratings/domain/leak.py:17: builds RatingLeaked, which ratings does not declare",
        "services/ratings/domain/leak.py:17: builds MatchEnded, which ratings does not declare",
        "services/ratings/domain/twin.py:7: event RatingChanged declared outside services.ratings.events",
        "services/ratings/raw.py:6: builds a NewEvent from a type name and data, not a declared event",
        "5 violation(s)",
    ], result.stdout
